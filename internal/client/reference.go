package client

import "net/http"

// Operation is one operation of the service the client calls: its method,
// its path under the base URL with {name} for a path parameter (as the
// published reference writes it) and the scope the client asks a token for
// ("" for a public operation).
type Operation struct {
	Method, Path, Scope string
}

// Operations are every operation the client calls. The contract tests
// hold each against the published reference (its scope is the
// operation's security requirement), and the acceptance tests every
// request the client sends.
var Operations = []Operation{
	{http.MethodPost, PathCryptoWithdrawals, ScopeWriteCryptoWithdrawal},
	{http.MethodPost, PathFiatDepositInstructions, ScopeWriteFiatDepositInstr},
	{http.MethodGet, PathFiatDepositInstructions, ScopeReadFiatDepositInstr},
	{http.MethodGet, PathFiatDepositInstructions + "/{id}", ScopeReadFiatDepositInstr},
	{http.MethodGet, PathFiatAccounts, ScopeReadFiatAccount},
	{http.MethodPost, PathFiatAccounts, ScopeWriteFiatAccount},
	{http.MethodGet, PathFiatAccounts + "/{id}", ScopeReadFiatAccount},
	{http.MethodPut, PathFiatAccounts + "/{id}", ScopeWriteFiatAccount},
	{http.MethodDelete, PathFiatAccounts + "/{id}", ScopeWriteFiatAccount},
	{http.MethodGet, PathDepositAddresses, ScopeReadDepositAddress},
	{http.MethodPost, PathDepositAddresses, ScopeWriteDepositAddress},
	{http.MethodGet, PathRewardClaims, ScopeReadRewardClaims},
	{http.MethodPost, PathStablecoinConversions, ScopeWriteStablecoinConversion},
	{http.MethodGet, PathStablecoinConversions + "/{id}", ScopeReadStablecoinConversion},
	{http.MethodDelete, PathStablecoinConversions + "/{id}", ScopeWriteStablecoinConversion},
	{http.MethodPost, PathFiatWithdrawals, ScopeWriteFiatWithdrawal},
	{http.MethodPost, PathInternalTransfers, ScopeWriteInternalTransfer},
	{http.MethodGet, PathTransfers, ScopeReadTransfer},
	{http.MethodGet, PathTransfers + "/{id}", ScopeReadTransfer},
	{http.MethodGet, PathProfiles, ScopeReadProfile},
	{http.MethodPost, PathProfiles, ScopeWriteProfile},
	{http.MethodGet, PathProfiles + "/{profile_id}", ScopeReadProfile},
	{http.MethodPut, PathProfiles + "/{profile_id}", ScopeWriteProfile},
	{http.MethodPut, PathProfiles + "/{profile_id}/deactivate", ScopeWriteProfile},
	{http.MethodGet, PathProfiles + "/{profile_id}/balances", ScopeReadBalances},
	{http.MethodPut, PathCryptoDestinationAddress, ScopeWriteCryptoDestinationAddress},
	{http.MethodGet, PathCryptoDestinationAddresses, ScopeReadCryptoDestinationAddress},
	{http.MethodGet, PathTransferLimits, ScopeReadTransferLimit},
	{http.MethodPost, PathCryptoWithdrawalFee, ScopeWriteWithdrawalFee},
	{http.MethodGet, "/markets/{market}/ticker", ""},
}
