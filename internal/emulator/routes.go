package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// Route is one operation of the HTTP API the emulator serves, as the
// published reference names it: its method, its path under the base URL
// (with {name} for a path parameter), its scope ("" for a public
// operation) and whether the seed's api-spec.md describes it (the
// operations an emulator started with the seed profile serves).
type Route struct {
	Method string
	Path   string
	Scope  string
	Seed   bool
}

// apiRoute is a Route and its handler; id is the path parameter, if any.
type apiRoute struct {
	Route
	handler func(s *Server, w http.ResponseWriter, r *http.Request, id string)
	// jsonProblems are the statuses whose problem the reference publishes
	// as application/json rather than application/problem+json (it does
	// both, operation by operation and status by status).
	jsonProblems []int
}

// apiRoutes are the operations of the HTTP API, in the order of the
// reference's paths. TestRoutesAreOperationsOfTheReference holds every one
// against the published reference (method, path and scope).
var apiRoutes = []apiRoute{
	{Route{http.MethodGet, "/conversion/stablecoins", scopeReadConversion, false}, (*Server).handleListConversions, []int{400, 403}},
	{Route{http.MethodGet, "/conversion/stablecoins/{id}", scopeReadConversion, true}, (*Server).handleGetConversion, []int{403, 404}},
	{Route{http.MethodPost, "/conversion/stablecoins", scopeWriteConversion, false}, (*Server).handleCreateConversion, []int{400, 403, 409}},
	{Route{http.MethodDelete, "/conversion/stablecoins/{id}", scopeWriteConversion, false}, (*Server).handleCancelConversion, []int{403, 404}},
	{Route{http.MethodGet, "/markets/{market}/ticker", "", false}, (*Server).handleGetTicker, nil},
	{Route{http.MethodGet, "/orchestration/rules", scopeReadOrchestrationRule, false}, (*Server).handleListOrchestrationRules, nil},
	{Route{http.MethodPost, "/orchestration/rules", scopeWriteOrchestrationRule, false}, (*Server).handleCreateOrchestrationRule, nil},
	{Route{http.MethodDelete, "/orchestration/rules/{id}", scopeWriteOrchestrationRule, false}, (*Server).handleDeleteOrchestrationRule, nil},
	{Route{http.MethodGet, "/profiles", scopeReadProfile, false}, (*Server).handleListProfiles, nil},
	{Route{http.MethodPost, "/profiles", scopeWriteProfile, false}, (*Server).handleCreateProfile, nil},
	{Route{http.MethodGet, "/profiles/{profile_id}", scopeReadProfile, false}, (*Server).handleGetProfile, nil},
	{Route{http.MethodPut, "/profiles/{profile_id}", scopeWriteProfile, false}, (*Server).handleUpdateProfile, nil},
	{Route{http.MethodGet, "/profiles/{profile_id}/balances", scopeReadProfile, false}, (*Server).handleGetProfileBalances, nil},
	{Route{http.MethodPut, "/profiles/{profile_id}/deactivate", scopeWriteProfile, false}, (*Server).handleDeactivateProfile, nil},
	{Route{http.MethodGet, "/rewards/claims", scopeReadClaims, true}, (*Server).handleListRewardClaims, nil},
	{Route{http.MethodPost, "/sandbox/fiat-deposits", scopeWriteSandboxFiatDeposit, false}, (*Server).handleSandboxFiatDeposit, nil},
	{Route{http.MethodPost, "/sandbox/profiles/{profile_id}/deposit", scopeReadProfile, false}, (*Server).handleSandboxDeposit, nil},
	{Route{http.MethodPut, "/transfer/crypto-destination-address", scopeWriteDestinationAddress, false}, (*Server).handlePutDestinationAddress, nil},
	{Route{http.MethodGet, "/transfer/crypto-destination-addresses", scopeReadDestinationAddress, false}, (*Server).handleListDestinationAddresses, nil},
	{Route{http.MethodPost, "/transfer/crypto-withdrawals", scopeWriteWithdrawal, true}, (*Server).handleCreateWithdrawal, nil},
	{Route{http.MethodGet, "/transfer/deposit-addresses", scopeReadDepositAddr, true}, (*Server).handleListDepositAddresses, nil},
	{Route{http.MethodPost, "/transfer/deposit-addresses", scopeWriteDepositAddr, false}, (*Server).handleCreateDepositAddress, nil},
	{Route{http.MethodPost, "/transfer/fees/crypto-withdrawal", scopeWriteFeeQuote, false}, (*Server).handleCreateWithdrawalFee, nil},
	{Route{http.MethodGet, "/transfer/fiat-accounts", scopeReadFiatAccount, true}, (*Server).handleListFiatAccounts, nil},
	{Route{http.MethodPost, "/transfer/fiat-accounts", scopeWriteFiatAccount, false}, (*Server).handleCreateFiatAccount, []int{400, 403, 404}},
	{Route{http.MethodGet, "/transfer/fiat-accounts/{id}", scopeReadFiatAccount, false}, (*Server).handleGetFiatAccount, nil},
	{Route{http.MethodDelete, "/transfer/fiat-accounts/{id}", scopeWriteFiatAccount, false}, (*Server).handleDeleteFiatAccount, []int{400, 404}},
	{Route{http.MethodPut, "/transfer/fiat-accounts/{id}", scopeWriteFiatAccount, false}, (*Server).handleUpdateFiatAccount, []int{400, 403, 404}},
	{Route{http.MethodGet, "/transfer/fiat-deposit-instructions", scopeReadInstructions, false}, (*Server).handleListInstructions, []int{400, 404}},
	{Route{http.MethodPost, "/transfer/fiat-deposit-instructions", scopeWriteInstructions, true}, (*Server).handleCreateInstructions, []int{400, 404}},
	{Route{http.MethodGet, "/transfer/fiat-deposit-instructions/{id}", scopeReadInstructions, true}, (*Server).handleGetInstructions, []int{400, 404}},
	{Route{http.MethodPost, "/transfer/fiat-withdrawals", scopeWriteFiatWithdraw, false}, (*Server).handleCreateFiatWithdrawal, []int{400, 404}},
	{Route{http.MethodPost, "/transfer/internal", scopeWriteInternal, false}, (*Server).handleCreateInternalTransfer, nil},
	{Route{http.MethodGet, "/transfer/limits/utilizations", scopeReadLimits, false}, (*Server).handleListTransferLimits, nil},
	{Route{http.MethodGet, "/transfer/transfers", scopeReadTransfer, false}, (*Server).handleListTransfers, nil},
	{Route{http.MethodGet, "/transfer/transfers/{id}", scopeReadTransfer, false}, (*Server).handleGetTransfer, nil},
}

// Routes returns the operations the emulator serves under /v2 with the
// seed profile (seed) or with the whole published reference.
func Routes(seed bool) []Route {
	var out []Route
	for _, rt := range apiRoutes {
		if !seed || rt.Seed {
			out = append(out, rt.Route)
		}
	}
	return out
}

// match reports whether path (under the base URL) is of the pattern p,
// and the value of its path parameter, if any.
func match(p, path string) (id string, ok bool) {
	ps, xs := strings.Split(p, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return "", false
	}
	for i, seg := range ps {
		if strings.HasPrefix(seg, "{") {
			if xs[i] == "" {
				return "", false
			}
			id = xs[i]
			continue
		}
		if seg != xs[i] {
			return "", false
		}
	}
	return id, true
}

// routeFor finds the operation of method on path (under /v2) among those
// the emulator serves. found says whether the path is one of them at all;
// allow lists its methods when method is not one of them (a 405).
func (s *Server) routeFor(method, path string) (rt apiRoute, id string, allow []string, found bool) {
	rest, ok := strings.CutPrefix(path, "/v2")
	if !ok {
		return apiRoute{}, "", nil, false
	}
	for _, r := range apiRoutes {
		if s.opts.Profile == ProfileSeed && !r.Seed {
			continue
		}
		v, ok := match(r.Path, rest)
		if !ok {
			continue
		}
		found = true
		if r.Method == method {
			return r, v, nil, true
		}
		if !slices.Contains(allow, r.Method) {
			allow = append(allow, r.Method)
		}
	}
	return apiRoute{}, "", allow, found
}
