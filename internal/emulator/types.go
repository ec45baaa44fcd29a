package emulator

import (
	"encoding/json"
	"time"
)

// Values of the spec's enums, as the emulator validates them.
var (
	cryptoNetworks = []string{
		"BITCOIN", "ETHEREUM", "BITCOIN_CASH", "LITECOIN", "SOLANA", "POLYGON_POS",
		"BASE", "ARBITRUM_ONE", "STELLAR", "INK", "XLAYER",
		"AVALANCHE", "DOGECOIN", "SUI", "ROBINHOOD", "BNB",
	}
	fiatNetworks       = []string{"WIRE", "DBS_ACT", "CUBIX", "SCB", "RTP"}
	routingNumberTypes = []string{"ABA", "SWIFT"}
	onchainStatuses    = []string{"PENDING", "SUBMITTED", "CONFIRMED", "FAILED"}
)

// Limits of the spec.
const (
	maxFilterValues   = 100
	maxMetadataPairs  = 6
	maxMetadataLength = 100
	defaultPageLimit  = 100
	maxPageLimit      = 1000
)

// ErrorBody is the JSON body of every error response of the emulator.
type ErrorBody struct {
	// Code is a stable upper-case word, for example INVALID_ARGUMENT.
	Code string `json:"code"`
	// Message is a human-readable explanation.
	Message string `json:"message"`
	// Field names the offending request field or query parameter, when one is to blame.
	Field string `json:"field,omitempty"`
}

// CryptoWithdrawalRequest is the body of POST /v2/transfer/crypto-withdrawals.
type CryptoWithdrawalRequest struct {
	ProfileID          string            `json:"profile_id"`
	DestinationAddress string            `json:"destination_address"`
	Asset              string            `json:"asset"`
	CryptoNetwork      string            `json:"crypto_network"`
	RefID              string            `json:"ref_id,omitempty"`
	IdentityID         string            `json:"identity_id,omitempty"`
	AccountID          string            `json:"account_id,omitempty"`
	BalanceAsset       string            `json:"balance_asset,omitempty"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	FeeID              string            `json:"fee_id,omitempty"`
	Amount             string            `json:"amount,omitempty"`
	Total              string            `json:"total,omitempty"`
	Beneficiary        json.RawMessage   `json:"beneficiary,omitempty"`
	Memo               string            `json:"memo,omitempty"`
}

// FiatWithdrawalRequest is the body of POST /v2/transfer/fiat-withdrawals
// (the emulator's choice: the published excerpt does not show it).
type FiatWithdrawalRequest struct {
	ProfileID     string            `json:"profile_id"`
	FiatAccountID string            `json:"fiat_account_id"`
	Asset         string            `json:"asset"`
	Amount        string            `json:"amount,omitempty"`
	Total         string            `json:"total,omitempty"`
	Memo          string            `json:"memo,omitempty"`
	RefID         string            `json:"ref_id,omitempty"`
	IdentityID    string            `json:"identity_id,omitempty"`
	AccountID     string            `json:"account_id,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
}

// InternalTransferRequest is the body of POST /v2/transfer/internal (the
// emulator's choice: the published excerpt does not show it).
type InternalTransferRequest struct {
	FromProfileID string            `json:"from_profile_id"`
	ToProfileID   string            `json:"to_profile_id"`
	Asset         string            `json:"asset"`
	Amount        string            `json:"amount"`
	RefID         string            `json:"ref_id,omitempty"`
	IdentityID    string            `json:"identity_id,omitempty"`
	AccountID     string            `json:"account_id,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
}

// StablecoinConversionRequest is the body of POST
// /v2/conversion/stablecoins (the emulator's choice: the published excerpt
// does not show it).
type StablecoinConversionRequest struct {
	ProfileID          string            `json:"profile_id"`
	SourceAsset        string            `json:"source_asset"`
	TargetAsset        string            `json:"target_asset"`
	Amount             string            `json:"amount"`
	RecipientProfileID string            `json:"recipient_profile_id,omitempty"`
	RefID              string            `json:"ref_id,omitempty"`
	IdentityID         string            `json:"identity_id,omitempty"`
	AccountID          string            `json:"account_id,omitempty"`
	Metadata           map[string]string `json:"metadata,omitempty"`
}

// Transfer is the response of Create Crypto Withdrawal.
type Transfer struct {
	ID                 string            `json:"id"`
	CustomerID         string            `json:"customer_id"`
	ProfileID          string            `json:"profile_id"`
	Amount             string            `json:"amount"`
	Total              string            `json:"total"`
	Fee                string            `json:"fee"`
	Asset              string            `json:"asset"`
	Direction          string            `json:"direction"`
	Type               string            `json:"type"`
	Status             string            `json:"status"`
	CreatedAt          time.Time         `json:"created_at"`
	UpdatedAt          time.Time         `json:"updated_at"`
	IdentityID         *string           `json:"identity_id,omitempty"`
	AccountID          *string           `json:"account_id,omitempty"`
	RefID              *string           `json:"ref_id,omitempty"`
	BalanceAsset       *string           `json:"balance_asset,omitempty"`
	SecondaryStatus    map[string]any    `json:"secondary_status,omitempty"`
	StatusDetails      map[string]any    `json:"status_details,omitempty"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	DestinationAddress *string           `json:"destination_address,omitempty"`
	CryptoNetwork      *string           `json:"crypto_network,omitempty"`
	CryptoTxHash       *string           `json:"crypto_tx_hash,omitempty"`
	CryptoTxIndex      *string           `json:"crypto_tx_index,omitempty"`
	// AutoConversion is always present on a withdrawal response, possibly empty.
	AutoConversion map[string]any `json:"auto_conversion"`
	GroupID        *string        `json:"group_id,omitempty"`
	FiatAccountID  *string        `json:"fiat_account_id,omitempty"`
	NotionalValue  *string        `json:"notional_value,omitempty"`
	Memo           *string        `json:"memo,omitempty"`
}

// FiatDepositInstructionsRequest is the body of POST
// /v2/transfer/fiat-deposit-instructions.
type FiatDepositInstructionsRequest struct {
	ProfileID         string            `json:"profile_id"`
	FiatNetwork       string            `json:"fiat_network"`
	RefID             string            `json:"ref_id,omitempty"`
	IdentityID        string            `json:"identity_id,omitempty"`
	AccountID         string            `json:"account_id,omitempty"`
	RoutingNumberType string            `json:"routing_number_type,omitempty"`
	Metadata          map[string]string `json:"metadata,omitempty"`
}

// Address is the spec's address object. Empty parts are omitted.
type Address struct {
	Country  string `json:"country,omitempty"`
	Address1 string `json:"address1,omitempty"`
	Address2 string `json:"address2,omitempty"`
	City     string `json:"city,omitempty"`
	Province string `json:"province,omitempty"`
	ZipCode  string `json:"zip_code,omitempty"`
}

// PersonDetails names the owner of an account.
type PersonDetails struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
}

// InstitutionDetails names an owner that is an institution (API
// reference; the spec has person_details only).
type InstitutionDetails struct {
	Name string `json:"name"`
}

// FiatAccountOwner holds the owner's details: PersonDetails of a person,
// InstitutionDetails of an institution; the other is left out (the spec
// shows a null person_details, which the reference does not admit).
type FiatAccountOwner struct {
	PersonDetails      *PersonDetails      `json:"person_details,omitempty"`
	InstitutionDetails *InstitutionDetails `json:"institution_details,omitempty"`
}

// RoutingDetails describes how to route a wire. BankAddress is required by
// the reference; one that is not known is left out, never null.
type RoutingDetails struct {
	RoutingNumberType string   `json:"routing_number_type"`
	RoutingNumber     string   `json:"routing_number"`
	BankName          string   `json:"bank_name"`
	BankAddress       *Address `json:"bank_address,omitempty"`
}

// WireInstructions are the WIRE instructions of a deposit instruction set or
// of a fiat account. Status and Metadata are set on fiat accounts only.
// FiatAccountOwnerAddress is required by the reference; one that is not
// known is left out, never null.
type WireInstructions struct {
	AccountNumber           string          `json:"account_number"`
	FiatAccountOwnerAddress *Address        `json:"fiat_account_owner_address,omitempty"`
	RoutingDetails          *RoutingDetails `json:"routing_details"`
	// IntermediaryRoutingDetails is the correspondent bank of a SWIFT
	// wire (API reference; the spec does not show it).
	IntermediaryRoutingDetails *RoutingDetails   `json:"intermediary_routing_details,omitempty"`
	Status                     string            `json:"status,omitempty"`
	Metadata                   map[string]string `json:"metadata,omitempty"`
}

// FiatNetworkInstructions holds the instructions of one fiat network. Like
// the spec's example response it also carries fiat_account_owner and
// metadata.
type FiatNetworkInstructions struct {
	Wire             *WireInstructions          `json:"wire,omitempty"`
	DBSAct           *AccountNumberInstructions `json:"dbs_act,omitempty"`
	Cubix            *CubixInstructions         `json:"cubix,omitempty"`
	SCB              *AccountNumberInstructions `json:"scb,omitempty"`
	RTP              *RTPInstructions           `json:"rtp,omitempty"`
	FiatAccountOwner *FiatAccountOwner          `json:"fiat_account_owner,omitempty"`
	Metadata         map[string]string          `json:"metadata,omitempty"`
}

// FiatDepositInstructions is the response of Create and Get Fiat Deposit
// Instructions.
type FiatDepositInstructions struct {
	ID                      string                   `json:"id"`
	ProfileID               string                   `json:"profile_id"`
	IdentityID              string                   `json:"identity_id"`
	Status                  string                   `json:"status"`
	MemoID                  string                   `json:"memo_id"`
	FiatNetworkInstructions *FiatNetworkInstructions `json:"fiat_network_instructions"`
	CreatedAt               time.Time                `json:"created_at"`
	AccountID               *string                  `json:"account_id,omitempty"`
	RefID                   *string                  `json:"ref_id,omitempty"`
	FiatAccountOwner        *FiatAccountOwner        `json:"fiat_account_owner,omitempty"`
	Metadata                map[string]string        `json:"metadata,omitempty"`
	CustomerID              *string                  `json:"customer_id,omitempty"`
}

// FiatAccountNetworkInstructions is fiat_network_instructions of a fiat
// account. Seeded accounts have wire only; accounts made through Create
// Fiat Account have the one network they were made with (API reference:
// wire, cbit, dbs_act, cubix, scb, rtp).
type FiatAccountNetworkInstructions struct {
	Wire   *WireInstructions          `json:"wire,omitempty"`
	Cbit   *CbitInstructions          `json:"cbit,omitempty"`
	DBSAct *AccountNumberInstructions `json:"dbs_act,omitempty"`
	Cubix  *CubixInstructions         `json:"cubix,omitempty"`
	SCB    *AccountNumberInstructions `json:"scb,omitempty"`
	RTP    *RTPInstructions           `json:"rtp,omitempty"`
}

// CbitInstructions are the CBIT instructions of a fiat account.
type CbitInstructions struct {
	WalletAddress string `json:"wallet_address"`
}

// AccountNumberInstructions are the DBS_ACT or SCB instructions of a fiat
// account.
type AccountNumberInstructions struct {
	AccountNumber string `json:"account_number"`
}

// CubixInstructions are the CUBIX instructions of a fiat account.
type CubixInstructions struct {
	AccountID string `json:"account_id"`
}

// RTPRoutingDetails are the routing details of RTP instructions.
type RTPRoutingDetails struct {
	RoutingNumber string   `json:"routing_number"`
	BankName      string   `json:"bank_name,omitempty"`
	BankAddress   *Address `json:"bank_address,omitempty"`
}

// RTPInstructions are the RTP instructions of a fiat account.
type RTPInstructions struct {
	AccountNumber           string             `json:"account_number"`
	FiatAccountOwnerAddress *Address           `json:"fiat_account_owner_address,omitempty"`
	RoutingDetails          *RTPRoutingDetails `json:"routing_details"`
}

// CreateFiatAccountRequest is the body of POST /transfer/fiat-accounts.
type CreateFiatAccountRequest struct {
	RefID                   string                          `json:"ref_id,omitempty"`
	IdentityID              string                          `json:"identity_id,omitempty"`
	AccountID               string                          `json:"account_id,omitempty"`
	FiatAccountOwner        *FiatAccountOwner               `json:"fiat_account_owner"`
	FiatNetworkInstructions *FiatAccountNetworkInstructions `json:"fiat_network_instructions"`
	Metadata                map[string]string               `json:"metadata,omitempty"`
}

// UpdateRoutingDetails are the routing details an update may change.
type UpdateRoutingDetails struct {
	BankName    string   `json:"bank_name,omitempty"`
	BankAddress *Address `json:"bank_address,omitempty"`
}

// UpdateWire is the wire part of an update.
type UpdateWire struct {
	FiatAccountOwnerAddress    *Address              `json:"fiat_account_owner_address,omitempty"`
	RoutingDetails             *UpdateRoutingDetails `json:"routing_details,omitempty"`
	IntermediaryRoutingDetails *UpdateRoutingDetails `json:"intermediary_routing_details,omitempty"`
}

// UpdateFiatAccountRequest is the body of PUT /transfer/fiat-accounts/{id}.
type UpdateFiatAccountRequest struct {
	FiatAccountOwner        *FiatAccountOwner `json:"fiat_account_owner,omitempty"`
	FiatNetworkInstructions *struct {
		Wire *UpdateWire `json:"wire,omitempty"`
	} `json:"fiat_network_instructions,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// FiatAccount is an item of List Fiat Accounts.
type FiatAccount struct {
	ID                      string                          `json:"id"`
	RefID                   *string                         `json:"ref_id,omitempty"`
	IdentityID              *string                         `json:"identity_id,omitempty"`
	AccountID               *string                         `json:"account_id,omitempty"`
	FiatAccountOwner        *FiatAccountOwner               `json:"fiat_account_owner"`
	FiatNetworkInstructions *FiatAccountNetworkInstructions `json:"fiat_network_instructions"`
	// Status (PENDING, APPROVED, REJECTED) and Metadata are at the top
	// level of the item in the API reference; only its example nests them
	// under wire (Options.FiatAccountStatusNested).
	Status    string            `json:"status,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
	CreatedAt time.Time         `json:"created_at"`
	UpdatedAt time.Time         `json:"updated_at"`
	// Deleted accounts are listed only with include_deleted=true. Not sent.
	Deleted bool `json:"-"`
}

// DepositAddress is an item of List Deposit Addresses.
type DepositAddress struct {
	ID            string  `json:"id"`
	ProfileID     string  `json:"profile_id"`
	CustomerID    string  `json:"customer_id"`
	IdentityID    *string `json:"identity_id,omitempty"`
	RefID         *string `json:"ref_id,omitempty"`
	CryptoNetwork string  `json:"crypto_network"`
	Address       string  `json:"address"`
	// ConversionTargetAsset is NO_CONVERSION when deposits are not
	// converted: the reference requires it, with no null.
	ConversionTargetAsset    *string           `json:"conversion_target_asset"`
	CompatibleCryptoNetworks []string          `json:"compatible_crypto_networks"`
	Metadata                 map[string]string `json:"metadata,omitempty"`
	CreatedAt                time.Time         `json:"created_at"`
	// AccountID is the account the address belongs to: an item field of
	// the API reference (the spec has only the account_ids filter).
	// Omitted when an address made through the API names none.
	AccountID string `json:"account_id,omitempty"`
}

// RewardClaim is an item of List claims.
type RewardClaim struct {
	ID              string     `json:"id"`
	PayoutGroupID   string     `json:"payout_group_id"`
	ClaimScheduleID string     `json:"claim_schedule_id"`
	Amount          string     `json:"amount"`
	TxHash          *string    `json:"tx_hash,omitempty"`
	Addresses       []string   `json:"addresses"`
	ErrorMessage    *string    `json:"error_message,omitempty"`
	Blockchain      string     `json:"blockchain"`
	AssetType       string     `json:"asset_type"`
	SubmittedAt     *time.Time `json:"submitted_at,omitempty"`
	ConfirmedAt     *time.Time `json:"confirmed_at,omitempty"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
	// OnchainStatus is what the statuses filter matches; the API
	// reference's claim item carries it (the spec's does not).
	OnchainStatus string `json:"onchain_status"`
	// ClaimType is CLAIM_ALL, CLAIM_FOR_ADDRESSES or CLAIM_UNREGISTER (API
	// reference).
	ClaimType string `json:"claim_type"`
	// Jurisdiction is what the jurisdiction filter matches; not sent.
	Jurisdiction string `json:"-"`
}

// StablecoinConversion is the response of Get Stablecoin Conversion.
type StablecoinConversion struct {
	ID                 string            `json:"id"`
	ProfileID          string            `json:"profile_id"`
	Amount             string            `json:"amount"`
	SourceAsset        string            `json:"source_asset"`
	TargetAsset        string            `json:"target_asset"`
	Status             string            `json:"status"`
	RefID              *string           `json:"ref_id,omitempty"`
	IdentityID         *string           `json:"identity_id,omitempty"`
	AccountID          *string           `json:"account_id,omitempty"`
	CreatedAt          time.Time         `json:"created_at"`
	UpdatedAt          time.Time         `json:"updated_at"`
	SettledAt          *time.Time        `json:"settled_at,omitempty"`
	CancelledAt        *time.Time        `json:"cancelled_at,omitempty"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	RecipientProfileID *string           `json:"recipient_profile_id,omitempty"`
}

// Page is the body of every list response.
type Page[T any] struct {
	Items          []T    `json:"items"`
	NextPageCursor string `json:"next_page_cursor"`
}
