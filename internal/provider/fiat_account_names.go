package provider

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Fiat accounts named for a reviewer: the money.summary of a movement to
// a fiat account (a fiat withdrawal, an orchestration rule with a fiat
// destination) names the account by what a person recognises, as List
// Fiat Accounts shows it: its bank, the last four digits of its account
// number (all that list shows of it), the nickname its metadata gives
// and its ref_id, unless that is a UUID. Never its owner, never its full
// number.
//
// The accounts are read once per provider process, for every account of
// the plan together: the list of the customer's fiat accounts, read to
// its end in pages of the largest size the service allows, up to
// fiatDirectoryMax accounts (one request for a payroll to a few hundred
// accounts, however many withdrawals it has). An account the list does
// not hold (a longer list cut short, an account made after it was read,
// an unknown id) is read by id, gathered with the others (the ids filter,
// money_gathering.go): only that read says an account is not listed. The
// final plan Terraform makes at apply reads them again, and must find
// what the plan showed.
//
// An account that cannot be named keeps its id, and the summary says why
// (fiatAccountUnnamed): the plan never fails for want of a name, and a
// name is never guessed.

// fiatAccountNamespace is the ref_id namespace of fiat accounts (the
// refNamespace of fiatAccountWords), by which the money guard's approval
// rule finds the status this run saw of an account.
const fiatAccountNamespace = "fiat_account"

// fiatDirectoryMax is the most accounts the directory reads.
const fiatDirectoryMax = 3000

// fiatAccountDirectory is what this process read of the fiat accounts,
// for their names.
type fiatAccountDirectory struct {
	once sync.Once
	// accounts are the listed accounts by id; err is the list's failure.
	accounts map[string]*client.FiatAccount
	err      error
	// others are the names of the accounts the list does not hold, read
	// by id.
	others readOnce[string]
}

// fiatAccountName is what the summary says of the fiat account id, in
// the parentheses after its id: what the service lists of it, or why
// nothing is shown.
func fiatAccountName(ctx context.Context, run *moneyRun, id string) string {
	if run == nil || run.client == nil {
		return "not read: the provider is not configured"
	}
	d := &run.fiatNames
	d.once.Do(func() { d.read(ctx, run.client) })
	if d.err != nil {
		return fiatAccountUnnamed(ctx, d.err)
	}
	if a, ok := d.accounts[id]; ok {
		return describeFiatAccount(a)
	}
	name, _ := d.others.get(id, func() (string, error) {
		c := run.client
		g := gathererOf(run, "fiat_account_names", func() *gatherer[*client.FiatAccount] {
			return &gatherer[*client.FiatAccount]{
				max:     maxGathered,
				spacing: gatherSpacing,
				one: func(ctx context.Context, id string) (*client.FiatAccount, bool, error) {
					m, err := listFiatAccountsByID(ctx, c, []string{id})
					return m[id], m[id] != nil, err
				},
				many: func(ctx context.Context, ids []string) (map[string]*client.FiatAccount, error) {
					return listFiatAccountsByID(ctx, c, ids)
				},
			}
		})
		res, err := g.get(ctx, id)
		switch {
		case err != nil:
			return fiatAccountUnnamed(ctx, err), nil
		case !res.found:
			return fiatAccountNotListed, nil
		}
		return describeFiatAccount(res.val), nil
	})
	return name
}

// fiatAccountNotListed is what the summary says of an account the
// service does not list.
const fiatAccountNotListed = "not listed by the service"

// read lists the accounts, up to fiatDirectoryMax.
func (d *fiatAccountDirectory) read(ctx context.Context, c *client.Client) {
	d.accounts = map[string]*client.FiatAccount{}
	n := 0
	for a, err := range c.FiatAccounts(ctx, client.ListFiatAccountsQuery{MaxItems: fiatDirectoryMax}) {
		if err != nil {
			d.err = err
			return
		}
		n++
		if id := deref(a.ID); id != "" {
			d.accounts[id] = a
		}
	}
	tflog.Debug(ctx, "fiat accounts listed to name them in money summaries", map[string]any{
		"accounts": n, "cut short": n >= fiatDirectoryMax})
}

// listFiatAccountsByID lists the accounts ids, read to the end.
func listFiatAccountsByID(ctx context.Context, c *client.Client, ids []string) (map[string]*client.FiatAccount, error) {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	out := map[string]*client.FiatAccount{}
	for a, err := range c.FiatAccounts(ctx, client.ListFiatAccountsQuery{IDs: ids}) {
		if err != nil {
			return nil, err
		}
		if id := deref(a.ID); want[id] {
			out[id] = a
		}
	}
	return out, nil
}

// fiatAccountUnnamed says why an account is not named: the same words
// for the same cause, so that the final plan at apply says what the plan
// said (the error itself is logged).
func fiatAccountUnnamed(ctx context.Context, err error) string {
	tflog.Warn(ctx, "fiat accounts not read to name them in money summaries", map[string]any{"error": err.Error()})
	switch {
	case client.CredentialsRejected(err):
		return "not read: the service rejected the credentials"
	case scopeRefused(err):
		return "not read: the credentials lack the OAuth scope " + client.ScopeReadFiatAccount
	}
	return "not read: the service's list of fiat accounts failed"
}

// describeFiatAccount names the listed account a: its bank, the last
// digits of its account number, its nickname, its ref_id unless that is
// a UUID (a derived one says nothing to a person).
func describeFiatAccount(a *client.FiatAccount) string {
	var parts []string
	network, bank := networkOf(a.FiatNetworkInstructions)
	if bank != "" {
		parts = append(parts, bank)
	} else if network != "" {
		parts = append(parts, strings.ToUpper(network))
	}
	if last := lastDigits(accountNumberOf(a.FiatNetworkInstructions)); last != "" {
		parts = append(parts, "account ending "+last)
	}
	if nick, ok := a.AccountMetadata()["nickname"].(string); ok && strings.TrimSpace(nick) != "" {
		parts = append(parts, "nickname "+strconv.Quote(strings.TrimSpace(nick)))
	}
	if ref := deref(a.RefID); ref != "" && uuid.Validate(ref) != nil {
		parts = append(parts, "ref_id "+ref)
	}
	if len(parts) == 0 {
		return "listed by the service with no bank, account number, nickname or ref_id"
	}
	return shown(strings.Join(parts, ", "))
}

// accountNumberOf is the account number of the instructions n, as listed
// (masked but for its last digits).
func accountNumberOf(n *client.FiatNetworkInstructions) string {
	switch {
	case n == nil:
		return ""
	case n.Wire != nil:
		return deref(n.Wire.AccountNumber)
	case n.RTP != nil:
		return deref(n.RTP.AccountNumber)
	case n.DBSAct != nil:
		return deref(n.DBSAct.AccountNumber)
	case n.SCB != nil:
		return deref(n.SCB.AccountNumber)
	}
	return ""
}

// lastDigits is the last four characters of number when they are digits
// ("" otherwise: masked, or too short to say).
func lastDigits(number string) string {
	if len(number) < 4 {
		return ""
	}
	last := number[len(number)-4:]
	for _, r := range last {
		if r < '0' || r > '9' {
			return ""
		}
	}
	return last
}
