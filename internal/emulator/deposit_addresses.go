package emulator

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Create Deposit Address (POST /transfer/deposit-addresses, scope
// transfer:write_deposit_address), as the API reference publishes it: 200
// with the DepositAddress, and for a ref_id used before (by an address made
// through the API or a seeded one) 409 with the already-exists problem
// whose meta.existing is the address made with it. The address then
// appears in List Deposit Addresses after the seeded ones.

// DepositAddressRequest is the body of Create Deposit Address.
type DepositAddressRequest struct {
	ProfileID             string            `json:"profile_id"`
	CryptoNetwork         string            `json:"crypto_network"`
	IdentityID            string            `json:"identity_id,omitempty"`
	RefID                 string            `json:"ref_id,omitempty"`
	Metadata              map[string]string `json:"metadata,omitempty"`
	AccountID             string            `json:"account_id,omitempty"`
	ConversionTargetAsset string            `json:"conversion_target_asset,omitempty"`
}

// conversionTargetAssets are the values of DepositAddressConversionTargetAsset.
var conversionTargetAssets = []string{"NO_CONVERSION", "USD"}

// evmFamily are the networks an address of one of them is compatible with,
// as the reference's example lists them for ETHEREUM.
var evmFamily = []string{"ETHEREUM", "POLYGON_POS", "BASE", "ARBITRUM_ONE", "INK", "XLAYER"}

// compatibleNetworks are the networks a deposit address made on network
// can receive deposits on: the EVM family for its members, the network
// alone otherwise.
func compatibleNetworks(network string) []string {
	if slices.Contains(evmFamily, network) {
		return slices.Clone(evmFamily)
	}
	return []string{network}
}

func validateDepositAddress(req *DepositAddressRequest) *apiError {
	if e := required("profile_id", req.ProfileID, "crypto_network", req.CryptoNetwork); e != nil {
		return e
	}
	if e := oneOf("crypto_network", req.CryptoNetwork, cryptoNetworks); e != nil {
		return e
	}
	if req.ConversionTargetAsset != "" {
		if e := oneOf("conversion_target_asset", req.ConversionTargetAsset, conversionTargetAssets); e != nil {
			return e
		}
	}
	return validateMetadata(req.Metadata)
}

func (s *Server) handleCreateDepositAddress(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, validateDepositAddress)
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	if req.RefID != "" {
		if prev, ok := st.depositAddressByRef(req.RefID); ok {
			st.mu.Unlock()
			s.answerAlreadyExists(w, r, "deposit address", req.RefID, prev)
			return
		}
	}
	target := req.ConversionTargetAsset
	if target == "" {
		target = "NO_CONVERSION"
	}
	d := DepositAddress{
		ID:                       st.created.uuid(),
		ProfileID:                req.ProfileID,
		CustomerID:               st.customerID,
		IdentityID:               optional(req.IdentityID),
		RefID:                    optional(req.RefID),
		CryptoNetwork:            req.CryptoNetwork,
		Address:                  st.created.addressFor(req.CryptoNetwork),
		ConversionTargetAsset:    &target,
		CompatibleCryptoNetworks: compatibleNetworks(req.CryptoNetwork),
		Metadata:                 req.Metadata,
		CreatedAt:                s.now().UTC().Truncate(time.Microsecond),
		AccountID:                req.AccountID,
	}
	st.createdAddresses = append(st.createdAddresses, d)
	if req.RefID != "" {
		st.addressByRef[req.RefID] = len(st.createdAddresses) - 1
	}
	st.mu.Unlock()
	s.answerPost(w, r, d)
}

// seededRefPrefix starts the ref_id of seeded deposit addresses: the n-th
// (from 1) has deposit-address-n, if any.
const seededRefPrefix = "deposit-address-"

// depositAddressByRef finds the address made with refID, seeded or made
// through the API. st.mu is held.
func (st *store) depositAddressByRef(refID string) (DepositAddress, bool) {
	if i, ok := st.addressByRef[refID]; ok {
		return st.createdAddresses[i], true
	}
	if n, found := strings.CutPrefix(refID, seededRefPrefix); found {
		if i, err := strconv.Atoi(n); err == nil && i >= 1 && i <= len(st.depositAddresses) {
			if d := st.depositAddresses[i-1]; d.RefID != nil && *d.RefID == refID {
				return d, true
			}
		}
	}
	return DepositAddress{}, false
}

// createdDepositAddresses is the addresses made through the API so far.
// They are never changed once appended, so the slice may be read without
// the lock.
func (st *store) createdDepositAddresses() []DepositAddress {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.createdAddresses[:len(st.createdAddresses):len(st.createdAddresses)]
}
