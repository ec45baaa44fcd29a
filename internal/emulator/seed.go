package emulator

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// seedEpoch is the creation time of the first seeded row of every data set.
// Seeded data never depends on the clock, so a seed always yields the same rows.
var seedEpoch = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

// Streams of the seeded generator, one per data set so that the size of one
// set never changes the rows of another.
const (
	streamCustomer uint64 = iota + 1
	streamFiatAccounts
	streamDepositAddresses
	streamRewardClaims
	streamConversions
)

// gen is a deterministic generator of identifiers and values.
type gen struct {
	r *rand.Rand
}

func newGen(seed int64, stream uint64) *gen {
	//nolint:gosec // Deterministic test data; not used for anything secret.
	return &gen{r: rand.New(rand.NewPCG(uint64(seed), stream))}
}

// uuids is n UUIDs, drawn one after the other.
func (g *gen) uuids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.uuid()
	}
	return out
}

func (g *gen) uuid() string {
	var u uuid.UUID
	binary.BigEndian.PutUint64(u[:8], g.r.Uint64())
	binary.BigEndian.PutUint64(u[8:], g.r.Uint64())
	u[6] = (u[6] & 0x0f) | 0x40
	u[8] = (u[8] & 0x3f) | 0x80
	return u.String()
}

func (g *gen) intn(n int) int { return g.r.IntN(n) }

// chance reports true with probability pct/100.
func (g *gen) chance(pct int) bool { return g.r.IntN(100) < pct }

func (g *gen) pick(vals []string) string { return vals[g.r.IntN(len(vals))] }

func (g *gen) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "0123456789"[g.r.IntN(10)]
	}
	return string(b)
}

func (g *gen) hex(n int) string {
	b := make([]byte, (n+1)/2+8)
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], g.r.Uint64())
	}
	b = b[:(n+1)/2]
	return hex.EncodeToString(b)[:n]
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func (g *gen) base58(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base58Alphabet[g.r.IntN(len(base58Alphabet))]
	}
	return string(b)
}

// decimal returns a positive decimal string with up to frac fractional digits.
func (g *gen) decimal(maxInt, frac int) string {
	s := strconv.Itoa(g.r.IntN(maxInt))
	if frac > 0 {
		f := strings.TrimRight(g.digits(frac), "0")
		if f != "" {
			return s + "." + f
		}
	}
	if s == "0" {
		return "1"
	}
	return s
}

// timeAt returns the creation time of row i: within [i*step, (i+1)*step)
// after seedEpoch, whole seconds, so that rows are strictly increasing.
func (g *gen) timeAt(i int, step time.Duration) time.Time {
	secs := int64(step / time.Second)
	off := int64(i)*secs + g.r.Int64N(secs)
	return seedEpoch.Add(time.Duration(off) * time.Second)
}

// derivedUUID is a UUID that depends only on the seed and the parts.
func derivedUUID(seed int64, parts ...string) string {
	h := sha256.New()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(seed)) //nolint:gosec // Any bit pattern of the seed will do.
	h.Write(b[:])
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	var u uuid.UUID
	copy(u[:], h.Sum(nil))
	u[6] = (u[6] & 0x0f) | 0x40
	u[8] = (u[8] & 0x3f) | 0x80
	return u.String()
}

func ptr[T any](v T) *T { return &v }

// copyOf is a pointer to a copy of *p; nil when p is.
func copyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

// addressFor returns a plausible address on network.
func (g *gen) addressFor(network string) string {
	switch network {
	case "BITCOIN":
		return "bc1q" + strings.ToLower(g.base58(38))
	case "BITCOIN_CASH":
		return "bitcoincash:q" + strings.ToLower(g.base58(41))
	case "LITECOIN":
		return "ltc1q" + strings.ToLower(g.base58(38))
	case "SOLANA":
		return g.base58(44)
	case "STELLAR":
		return "G" + strings.ToUpper(g.base58(55))
	case "DOGECOIN":
		return "D" + g.base58(33)
	case "SUI":
		return "0x" + g.hex(64)
	default: // EVM networks.
		return "0x" + g.hex(40)
	}
}

var (
	firstNames = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Dennis"}
	lastNames  = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton", "Ritchie"}
	cities     = []struct{ city, province, zip, country string }{
		{"New York", "NY", "10001", "US"},
		{"Chicago", "IL", "60601", "US"},
		{"San Francisco", "CA", "94105", "US"},
		{"Austin", "TX", "73301", "US"},
		{"London", "Greater London", "EC2V 7HH", "GB"},
		{"Singapore", "Singapore", "048583", "SG"},
	}
	// institutionNames own the fiat accounts that have no person_details.
	institutionNames = []string{"Example Holdings LLC", "Acme Treasury Inc.", "Northwind Payments Ltd", "Contoso Capital"}
	streets          = []string{"Main St", "Market St", "Broadway", "King St", "High St", "Pine Ave"}
	bankNames        = []string{"First Platform Bank", "Cross River Example Bank", "Lead Example Bank", "Example Trust Company"}
	// fiatAccountWireStatuses are the wire statuses of seeded fiat accounts
	// (the spec names PENDING only).
	fiatAccountWireStatuses = []string{"PENDING", "ACTIVE", "ACTIVE", "ACTIVE", "REJECTED"}
)

func (g *gen) address() *Address {
	c := cities[g.intn(len(cities))]
	a := &Address{
		Country:  c.country,
		Address1: strconv.Itoa(1+g.intn(999)) + " " + g.pick(streets),
		City:     c.city,
		Province: c.province,
		ZipCode:  c.zip,
	}
	if g.chance(40) {
		a.Address2 = "Suite " + strconv.Itoa(100+g.intn(900))
	}
	return a
}

// seedFiatAccounts generates n fiat accounts in creation order.
func seedFiatAccounts(seed int64, n int) []FiatAccount {
	g := newGen(seed, streamFiatAccounts)
	identities := g.uuids(8)
	out := make([]FiatAccount, n)
	for i := range out {
		a := &out[i]
		a.ID = g.uuid()
		a.CreatedAt = g.timeAt(i, time.Minute)
		a.UpdatedAt = a.CreatedAt.Add(time.Duration(g.intn(3)) * 24 * time.Hour)
		if g.chance(90) {
			a.RefID = ptr("fiat-account-" + strconv.Itoa(i+1))
		}
		if g.chance(85) {
			a.IdentityID = ptr(identities[g.intn(len(identities))])
			a.AccountID = ptr(g.uuid())
		}
		owner := &FiatAccountOwner{}
		if g.chance(80) {
			owner.PersonDetails = &PersonDetails{FirstName: g.pick(firstNames), LastName: g.pick(lastNames)}
		} else {
			// No draw from g, so that the other rows stay as they were.
			owner.InstitutionDetails = &InstitutionDetails{Name: institutionNames[i%len(institutionNames)]}
		}
		a.FiatAccountOwner = owner
		acct := g.digits(8 + g.intn(5))
		if g.chance(70) {
			acct = strings.Repeat("*", len(acct)-4) + acct[len(acct)-4:]
		}
		wire := &WireInstructions{
			AccountNumber: acct,
			RoutingDetails: &RoutingDetails{
				RoutingNumberType: "ABA",
				RoutingNumber:     g.digits(9),
				BankName:          g.pick(bankNames),
			},
			Status: fiatAccountWireStatuses[g.intn(len(fiatAccountWireStatuses))],
		}
		if g.chance(25) {
			wire.RoutingDetails.RoutingNumberType = "SWIFT"
			wire.RoutingDetails.RoutingNumber = "EXMP" + "US" + strings.ToUpper(g.base58(2)) + "XXX"
		}
		// The reference requires both addresses: an account drawn without
		// one has a fixed one, drawn from nothing, so that the other rows
		// stay as they were.
		wire.FiatAccountOwnerAddress = fixedAddress
		if g.chance(75) {
			wire.FiatAccountOwnerAddress = g.address()
		}
		wire.RoutingDetails.BankAddress = fixedAddress
		if g.chance(60) {
			wire.RoutingDetails.BankAddress = g.address()
		}
		switch g.intn(4) {
		case 0:
		case 1:
			wire.Metadata = map[string]string{"nickname": "Operating account " + strconv.Itoa(i+1)}
		case 2:
			wire.Metadata = map[string]string{"verified": strconv.FormatBool(g.chance(50)), "tier": strconv.Itoa(1 + g.intn(3))}
		default:
			wire.Metadata = map[string]string{
				"source":       "onboarding",
				"review_score": strconv.Itoa(g.intn(100)),
				"review_tags":  "kyc,wire",
			}
		}
		a.FiatNetworkInstructions = &FiatAccountNetworkInstructions{Wire: wire}
		a.Deleted = g.chance(10)
	}
	return out
}

// fixedAddress is the address of a seeded fiat account drawn without one.
var fixedAddress = &Address{Country: "US", Address1: "1 Example Way", City: "Springfield", Province: "IL", ZipCode: "62701"}

// seedDepositAddresses generates n deposit addresses in creation order.
func seedDepositAddresses(seed int64, n int, customerID string) []DepositAddress {
	g := newGen(seed, streamDepositAddresses)
	profiles := g.uuids(4)
	identities := g.uuids(6)
	accounts := g.uuids(6)
	networks := []string{"BITCOIN", "ETHEREUM", "SOLANA", "BASE", "POLYGON_POS", "ARBITRUM_ONE", "LITECOIN", "STELLAR"}
	evm := []string{"ETHEREUM", "BASE", "POLYGON_POS", "ARBITRUM_ONE", "INK", "XLAYER"}
	out := make([]DepositAddress, n)
	for i := range out {
		d := &out[i]
		d.ID = g.uuid()
		d.CreatedAt = g.timeAt(i, time.Minute)
		d.CustomerID = customerID
		d.ProfileID = profiles[g.intn(len(profiles))]
		d.AccountID = accounts[g.intn(len(accounts))]
		if g.chance(85) {
			d.IdentityID = ptr(identities[g.intn(len(identities))])
		}
		if g.chance(80) {
			d.RefID = ptr("deposit-address-" + strconv.Itoa(i+1))
		}
		d.CryptoNetwork = g.pick(networks)
		d.Address = g.addressFor(d.CryptoNetwork)
		d.CompatibleCryptoNetworks = []string{d.CryptoNetwork}
		for _, e := range evm {
			if d.CryptoNetwork == e {
				d.CompatibleCryptoNetworks = append([]string(nil), evm...)
				break
			}
		}
		// Required by the reference, of its two values.
		d.ConversionTargetAsset = ptr("NO_CONVERSION")
		if g.chance(30) {
			d.ConversionTargetAsset = ptr("USD")
		}
		if g.chance(60) {
			d.Metadata = map[string]string{"label": "address " + strconv.Itoa(i+1)}
			if g.chance(50) {
				d.Metadata["team"] = g.pick([]string{"treasury", "payments", "ops"})
			}
		}
	}
	return out
}

var (
	claimChains = []struct{ chain, asset string }{
		{"ethereum", "ETH"}, {"solana", "SOL"}, {"polygon", "POL"}, {"cosmos", "ATOM"},
	}
	claimJurisdictions = []string{"US", "EU", "SG", "UK"}
	claimTypes         = []string{"CLAIM_ALL", "CLAIM_FOR_ADDRESSES", "CLAIM_UNREGISTER"}
)

// seedRewardClaims generates n reward claims in creation order.
func seedRewardClaims(seed int64, n int) []RewardClaim {
	g := newGen(seed, streamRewardClaims)
	groups := g.uuids(5)
	schedules := g.uuids(3)
	out := make([]RewardClaim, n)
	for i := range out {
		c := &out[i]
		c.ID = g.uuid()
		c.CreatedAt = g.timeAt(i, 10*time.Minute)
		c.UpdatedAt = c.CreatedAt
		c.PayoutGroupID = groups[g.intn(len(groups))]
		c.ClaimScheduleID = schedules[g.intn(len(schedules))]
		ch := claimChains[g.intn(len(claimChains))]
		c.Blockchain, c.AssetType = ch.chain, ch.asset
		c.Amount = g.decimal(50, 6)
		c.Jurisdiction = g.pick(claimJurisdictions)
		c.Addresses = []string{"0x" + g.hex(40)}
		if g.chance(20) {
			c.Addresses = append(c.Addresses, "0x"+g.hex(40))
		}
		c.OnchainStatus = g.pick(onchainStatuses)
		// By position, so that the generator's draws, and every other
		// seeded value, stay as they were.
		c.ClaimType = claimTypes[i%len(claimTypes)]
		if c.OnchainStatus != "PENDING" {
			sub := c.CreatedAt.Add(time.Duration(1+g.intn(30)) * time.Minute)
			c.SubmittedAt = &sub
			c.UpdatedAt = sub
			c.TxHash = ptr("0x" + g.hex(64))
		}
		switch c.OnchainStatus {
		case "CONFIRMED":
			conf := c.SubmittedAt.Add(time.Duration(1+g.intn(10)) * time.Minute)
			c.ConfirmedAt = &conf
			c.UpdatedAt = conf
		case "FAILED":
			c.ErrorMessage = ptr(g.pick([]string{"transaction reverted", "insufficient gas", "nonce too low"}))
		}
	}
	return out
}

// seedConversions generates n stablecoin conversions in creation order.
func seedConversions(seed int64, n int) []StablecoinConversion {
	g := newGen(seed, streamConversions)
	profiles := []string{g.uuid(), g.uuid()}
	pairs := []struct{ src, dst string }{{"USD", "USDC"}, {"USDC", "USD"}, {"USD", "PYUSD"}, {"PYUSD", "USD"}}
	out := make([]StablecoinConversion, n)
	for i := range out {
		c := &out[i]
		c.ID = g.uuid()
		c.CreatedAt = g.timeAt(i, time.Hour)
		c.UpdatedAt = c.CreatedAt
		c.ProfileID = profiles[g.intn(len(profiles))]
		p := pairs[g.intn(len(pairs))]
		c.SourceAsset, c.TargetAsset = p.src, p.dst
		c.Amount = g.decimal(100000, 2)
		c.Status = "CREATED"
		c.RefID = ptr("conversion-" + strconv.Itoa(i+1))
		if g.chance(50) {
			c.IdentityID = ptr(g.uuid())
			c.AccountID = ptr(g.uuid())
		}
		switch g.intn(3) {
		case 0:
			t := c.CreatedAt.Add(time.Duration(1+g.intn(60)) * time.Minute)
			c.SettledAt = &t
			c.UpdatedAt = t
		case 1:
			if g.chance(30) {
				t := c.CreatedAt.Add(time.Duration(1+g.intn(60)) * time.Minute)
				c.CancelledAt = &t
				c.UpdatedAt = t
			}
		}
		if g.chance(50) {
			c.Metadata = map[string]string{"purpose": g.pick([]string{"treasury", "payroll", "settlement"})}
		}
		if g.chance(20) {
			c.RecipientProfileID = ptr(profiles[g.intn(len(profiles))])
		}
	}
	return out
}

// publishFiatAccountStatus moves the status and metadata of the seeded fiat
// accounts from their wire details to the top level of the item, where the
// API reference's schema has them (a wire status ACTIVE is APPROVED there).
func publishFiatAccountStatus(accounts []FiatAccount) {
	for i := range accounts {
		a := &accounts[i]
		if a.FiatNetworkInstructions == nil || a.FiatNetworkInstructions.Wire == nil {
			continue
		}
		w := a.FiatNetworkInstructions.Wire
		a.Status, a.Metadata = w.Status, w.Metadata
		if a.Status == "ACTIVE" {
			a.Status = "APPROVED"
		}
		w.Status, w.Metadata = "", nil
	}
}
