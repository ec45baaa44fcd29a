package provider

// The resources on the money core (money_core.go): each creates its
// objects with a ref_id through planNewObject and createRun. Implementing
// registry.MoneyCoreResource is how the registry knows a resource is on
// the money core: registry.Types marks it (Type.MoneyCore), and every test
// table of the core (registry.MoneyCore) must then have a row for it, so
// that a new resource on the core cannot be left out of its scenarios.
// A resource that moves to the core implements it here, one line each.

// MoneyCoreKind is the kind of the ref_ids of crypto withdrawals.
func (r *cryptoWithdrawalResource) MoneyCoreKind() string { return withdrawalWords.kind }

// MoneyCoreKind is the kind of the ref_ids of deposit addresses.
func (r *depositAddressResource) MoneyCoreKind() string { return depositAddressWords.kind }

// MoneyCoreKind is the kind of the ref_ids of fiat deposit instructions.
func (r *fiatDepositInstructionsResource) MoneyCoreKind() string { return instructionsWords.kind }

// MoneyCoreKind is the kind of the ref_ids of fiat accounts.
func (r *fiatAccountResource) MoneyCoreKind() string { return fiatAccountWords.kind }
