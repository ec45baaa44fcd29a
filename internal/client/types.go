package client

import (
	"encoding/json"
	"time"
)

// Scopes the service names for each operation.
const (
	ScopeWriteCryptoWithdrawal       = "transfer:write_crypto_withdrawal"
	ScopeWriteFiatDepositInstr       = "transfer:write_fiat_deposit_instructions"
	ScopeReadFiatAccount             = "transfer:read_fiat_account"
	ScopeWriteFiatAccount            = "transfer:write_fiat_account"
	ScopeReadFiatDepositInstr        = "transfer:read_fiat_deposit_instructions"
	ScopeReadDepositAddress          = "transfer:read_deposit_address"
	ScopeWriteDepositAddress         = "transfer:write_deposit_address"
	ScopeReadRewardClaims            = "rewards:read_claims"
	ScopeReadStablecoinConversion    = "conversion:read_conversion_stablecoin"
	ScopeMarketDataStream            = "exchange:read_aggregated_marketdata_stream"
	ScopeWriteFiatWithdrawal         = "transfer:write_fiat_withdrawal"
	ScopeWriteInternalTransfer       = "transfer:write_internal_transfer"
	ScopeWriteStablecoinConversion   = "conversion:write_conversion_stablecoin"
	MaxPageLimit                     = 1000
	MaxFilterValues                  = 100
	MaxMetadataPairs                 = 6
	MaxMetadataLength                = 100
	DecimalPattern                   = `^[0-9]*\.?[0-9]+$`
	TransferStatusPending            = "PENDING"
	FiatDepositInstrStatusValid      = "VALID"
	FiatDepositInstrStatusDeprecated = "DEPRECATED"
)

// CryptoNetworks lists every crypto_network value of the API reference
// (the spec's 11 and AVALANCHE, DOGECOIN, SUI, ROBINHOOD and BNB). The
// list grows between versions of the service.
var CryptoNetworks = []string{
	"BITCOIN", "ETHEREUM", "BITCOIN_CASH", "LITECOIN", "SOLANA", "POLYGON_POS",
	"BASE", "ARBITRUM_ONE", "STELLAR", "INK", "XLAYER",
	"AVALANCHE", "DOGECOIN", "SUI", "ROBINHOOD", "BNB",
}

// DepositAddressConversionTargetAssets lists every conversion_target_asset
// of Create Deposit Address (DepositAddressConversionTargetAsset).
var DepositAddressConversionTargetAssets = []string{"NO_CONVERSION", "USD"}

// FiatNetworks lists every fiat_network value of the spec.
var FiatNetworks = []string{"WIRE", "DBS_ACT", "CUBIX", "SCB", "RTP"}

// RoutingNumberTypes lists every routing_number_type value of the spec.
var RoutingNumberTypes = []string{"ABA", "SWIFT"}

// ClaimTypes lists every claim_type of a reward claim.
var ClaimTypes = []string{"CLAIM_ALL", "CLAIM_FOR_ADDRESSES", "CLAIM_UNREGISTER"}

// ClaimOnchainStatuses lists every onchain status of a reward claim.
var ClaimOnchainStatuses = []string{"PENDING", "SUBMITTED", "CONFIRMED", "FAILED"}

// Orders lists the allowed values of the order list parameter.
var Orders = []string{"DESC", "ASC"}

// CryptoWithdrawalRequest is the body of POST /transfer/crypto-withdrawals.
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

// FiatWithdrawalRequest is the body of POST /transfer/fiat-withdrawals:
// exactly one of Amount and Total.
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

// InternalTransferRequest is the body of POST /transfer/internal.
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

// StablecoinConversionRequest is the body of POST /conversion/stablecoins.
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

// Transfer is the response of Create Crypto Withdrawal. Optional fields are
// pointers so that an absent field stays distinguishable from an empty one.
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
	SecondaryStatus    json.RawMessage   `json:"secondary_status,omitempty"`
	StatusDetails      json.RawMessage   `json:"status_details,omitempty"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	DestinationAddress *string           `json:"destination_address,omitempty"`
	CryptoNetwork      *string           `json:"crypto_network,omitempty"`
	CryptoTxHash       *string           `json:"crypto_tx_hash,omitempty"`
	CryptoTxIndex      *string           `json:"crypto_tx_index,omitempty"`
	AutoConversion     json.RawMessage   `json:"auto_conversion,omitempty"`
	GroupID            *string           `json:"group_id,omitempty"`
	FiatAccountID      *string           `json:"fiat_account_id,omitempty"`
	NotionalValue      *string           `json:"notional_value,omitempty"`
	Memo               *string           `json:"memo,omitempty"`
}

// FiatDepositInstructionsRequest is the body of POST
// /transfer/fiat-deposit-instructions.
type FiatDepositInstructionsRequest struct {
	ProfileID         string            `json:"profile_id"`
	FiatNetwork       string            `json:"fiat_network"`
	RefID             string            `json:"ref_id,omitempty"`
	IdentityID        string            `json:"identity_id,omitempty"`
	AccountID         string            `json:"account_id,omitempty"`
	RoutingNumberType string            `json:"routing_number_type,omitempty"`
	Metadata          map[string]string `json:"metadata,omitempty"`
}

// Address is the spec's address object.
type Address struct {
	Country  *string `json:"country,omitempty"`
	Address1 *string `json:"address1,omitempty"`
	Address2 *string `json:"address2,omitempty"`
	City     *string `json:"city,omitempty"`
	Province *string `json:"province,omitempty"`
	ZipCode  *string `json:"zip_code,omitempty"`
}

// PersonDetails names the owner of a fiat account.
type PersonDetails struct {
	FirstName *string `json:"first_name,omitempty"`
	LastName  *string `json:"last_name,omitempty"`
}

// InstitutionDetails names an owner that is an institution (published
// reference; the spec shows person_details only).
type InstitutionDetails struct {
	Name *string `json:"name,omitempty"`
}

// FiatAccountOwner holds the owner's details; person_details may be null,
// and institution_details is set when the owner is an institution.
type FiatAccountOwner struct {
	PersonDetails      *PersonDetails      `json:"person_details,omitempty"`
	InstitutionDetails *InstitutionDetails `json:"institution_details,omitempty"`
}

// RoutingDetails describes how to route a wire.
type RoutingDetails struct {
	RoutingNumberType *string  `json:"routing_number_type,omitempty"`
	RoutingNumber     *string  `json:"routing_number,omitempty"`
	BankName          *string  `json:"bank_name,omitempty"`
	BankAddress       *Address `json:"bank_address,omitempty"`
}

// WireInstructions are the WIRE instructions of a deposit instruction set or
// a fiat account. Status and Metadata are present on fiat accounts only.
type WireInstructions struct {
	AccountNumber              *string         `json:"account_number,omitempty"`
	FiatAccountOwnerAddress    *Address        `json:"fiat_account_owner_address,omitempty"`
	RoutingDetails             *RoutingDetails `json:"routing_details,omitempty"`
	IntermediaryRoutingDetails *RoutingDetails `json:"intermediary_routing_details,omitempty"`
	Status                     *string         `json:"status,omitempty"`
	Metadata                   map[string]any  `json:"metadata,omitempty"`
}

// FiatNetworkInstructions holds the per-network instructions. Only the WIRE
// shape is modelled; the API reference has more (DBS_ACT, CUBIX, SCB, RTP,
// wire.intermediary_routing_details), which
// FiatDepositInstructions.FiatNetworkInstructionsRaw keeps as the service
// sent them.
//
// The other networks of a fiat account (Create and Get Fiat Account) are
// modelled: cbit, dbs_act, cubix, scb and rtp.
type FiatNetworkInstructions struct {
	Wire             *WireInstructions          `json:"wire,omitempty"`
	Cbit             *CbitInstructions          `json:"cbit,omitempty"`
	DBSAct           *AccountNumberInstructions `json:"dbs_act,omitempty"`
	Cubix            *CubixInstructions         `json:"cubix,omitempty"`
	SCB              *AccountNumberInstructions `json:"scb,omitempty"`
	RTP              *RTPInstructions           `json:"rtp,omitempty"`
	FiatAccountOwner *FiatAccountOwner          `json:"fiat_account_owner,omitempty"`
	Metadata         map[string]any             `json:"metadata,omitempty"`
}

// CbitInstructions are the CBIT instructions of a fiat account.
type CbitInstructions struct {
	WalletAddress *string `json:"wallet_address,omitempty"`
}

// AccountNumberInstructions are the DBS_ACT or SCB instructions of a fiat
// account.
type AccountNumberInstructions struct {
	AccountNumber *string `json:"account_number,omitempty"`
}

// CubixInstructions are the CUBIX instructions of a fiat account.
type CubixInstructions struct {
	AccountID *string `json:"account_id,omitempty"`
}

// RTPRoutingDetails are the routing details of RTP instructions.
type RTPRoutingDetails struct {
	RoutingNumber *string  `json:"routing_number,omitempty"`
	BankName      *string  `json:"bank_name,omitempty"`
	BankAddress   *Address `json:"bank_address,omitempty"`
}

// RTPInstructions are the RTP instructions of a fiat account.
type RTPInstructions struct {
	AccountNumber           *string            `json:"account_number,omitempty"`
	FiatAccountOwnerAddress *Address           `json:"fiat_account_owner_address,omitempty"`
	RoutingDetails          *RTPRoutingDetails `json:"routing_details,omitempty"`
}

// CreateFiatAccountRequest is the body of POST /transfer/fiat-accounts.
type CreateFiatAccountRequest struct {
	RefID                   string                  `json:"ref_id,omitempty"`
	IdentityID              string                  `json:"identity_id,omitempty"`
	AccountID               string                  `json:"account_id,omitempty"`
	FiatAccountOwner        FiatAccountOwner        `json:"fiat_account_owner"`
	FiatNetworkInstructions FiatNetworkInstructions `json:"fiat_network_instructions"`
	Metadata                map[string]string       `json:"metadata,omitempty"`
}

// UpdateRoutingDetails are the routing details an update may change.
type UpdateRoutingDetails struct {
	BankName    *string  `json:"bank_name,omitempty"`
	BankAddress *Address `json:"bank_address,omitempty"`
}

// UpdateWire is the wire part of an update.
type UpdateWire struct {
	FiatAccountOwnerAddress    *Address              `json:"fiat_account_owner_address,omitempty"`
	RoutingDetails             *UpdateRoutingDetails `json:"routing_details,omitempty"`
	IntermediaryRoutingDetails *UpdateRoutingDetails `json:"intermediary_routing_details,omitempty"`
}

// UpdateFiatNetworkInstructions are the instructions an update may change:
// wire only.
type UpdateFiatNetworkInstructions struct {
	Wire *UpdateWire `json:"wire,omitempty"`
}

// UpdateFiatAccountRequest is the body of PUT /transfer/fiat-accounts/{id}.
// The service ignores empty strings and nulls.
type UpdateFiatAccountRequest struct {
	FiatAccountOwner        *FiatAccountOwner              `json:"fiat_account_owner,omitempty"`
	FiatNetworkInstructions *UpdateFiatNetworkInstructions `json:"fiat_network_instructions,omitempty"`
	Metadata                map[string]string              `json:"metadata,omitempty"`
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
	// FiatNetworkInstructionsRaw is fiat_network_instructions as the
	// service sent it, every network's fields included; nil when absent
	// or null.
	FiatNetworkInstructionsRaw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the instructions and keeps
// fiat_network_instructions as sent. (Fiat accounts, listed by the
// hundred thousand, decode theirs without a copy.)
func (f *FiatDepositInstructions) UnmarshalJSON(b []byte) error {
	type plain FiatDepositInstructions
	if err := json.Unmarshal(b, (*plain)(f)); err != nil {
		return err
	}
	var raw struct {
		Instructions json.RawMessage `json:"fiat_network_instructions"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw.Instructions) > 0 && string(raw.Instructions) != "null" {
		f.FiatNetworkInstructionsRaw = raw.Instructions
	}
	return nil
}

// FiatAccount is an item of List Fiat Accounts.
type FiatAccount struct {
	ID                      *string                  `json:"id,omitempty"`
	RefID                   *string                  `json:"ref_id,omitempty"`
	IdentityID              *string                  `json:"identity_id,omitempty"`
	AccountID               *string                  `json:"account_id,omitempty"`
	FiatAccountOwner        *FiatAccountOwner        `json:"fiat_account_owner,omitempty"`
	FiatNetworkInstructions *FiatNetworkInstructions `json:"fiat_network_instructions,omitempty"`
	// Status and Metadata are at the top level in the API reference's
	// schema; its example has them under wire (see AccountStatus).
	Status    *string        `json:"status,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt *time.Time     `json:"created_at,omitempty"`
	UpdatedAt *time.Time     `json:"updated_at,omitempty"`
}

// AccountStatus is the status of the account: at the top level of the
// item, or else under its wire details.
func (a *FiatAccount) AccountStatus() *string {
	if a.Status != nil && *a.Status != "" {
		return a.Status
	}
	if n := a.FiatNetworkInstructions; n != nil && n.Wire != nil {
		return n.Wire.Status
	}
	return nil
}

// AccountMetadata is the metadata of the account: at the top level of the
// item, or else under its wire details.
func (a *FiatAccount) AccountMetadata() map[string]any {
	if len(a.Metadata) > 0 {
		return a.Metadata
	}
	if n := a.FiatNetworkInstructions; n != nil && n.Wire != nil {
		return n.Wire.Metadata
	}
	return nil
}

// DepositAddress is an item of List Deposit Addresses.
type DepositAddress struct {
	ID                       *string           `json:"id,omitempty"`
	ProfileID                *string           `json:"profile_id,omitempty"`
	CustomerID               *string           `json:"customer_id,omitempty"`
	IdentityID               *string           `json:"identity_id,omitempty"`
	RefID                    *string           `json:"ref_id,omitempty"`
	CryptoNetwork            *string           `json:"crypto_network,omitempty"`
	Address                  *string           `json:"address,omitempty"`
	ConversionTargetAsset    *string           `json:"conversion_target_asset,omitempty"`
	AccountID                *string           `json:"account_id,omitempty"`
	CompatibleCryptoNetworks []string          `json:"compatible_crypto_networks,omitempty"`
	Metadata                 map[string]string `json:"metadata,omitempty"`
	CreatedAt                *time.Time        `json:"created_at,omitempty"`
}

// DepositAddressRequest is the body of POST /transfer/deposit-addresses
// (CreateDepositAddressRequest of the API reference).
type DepositAddressRequest struct {
	ProfileID             string            `json:"profile_id"`
	CryptoNetwork         string            `json:"crypto_network"`
	IdentityID            string            `json:"identity_id,omitempty"`
	RefID                 string            `json:"ref_id,omitempty"`
	Metadata              map[string]string `json:"metadata,omitempty"`
	AccountID             string            `json:"account_id,omitempty"`
	ConversionTargetAsset string            `json:"conversion_target_asset,omitempty"`
}

// RewardClaim is an item of List claims.
type RewardClaim struct {
	ID              *string    `json:"id,omitempty"`
	PayoutGroupID   *string    `json:"payout_group_id,omitempty"`
	ClaimScheduleID *string    `json:"claim_schedule_id,omitempty"`
	Amount          *string    `json:"amount,omitempty"`
	TxHash          *string    `json:"tx_hash,omitempty"`
	Addresses       []string   `json:"addresses,omitempty"`
	ErrorMessage    *string    `json:"error_message,omitempty"`
	Blockchain      *string    `json:"blockchain,omitempty"`
	AssetType       *string    `json:"asset_type,omitempty"`
	OnchainStatus   *string    `json:"onchain_status,omitempty"`
	ClaimType       *string    `json:"claim_type,omitempty"`
	SubmittedAt     *time.Time `json:"submitted_at,omitempty"`
	ConfirmedAt     *time.Time `json:"confirmed_at,omitempty"`
	CreatedAt       *time.Time `json:"created_at,omitempty"`
	UpdatedAt       *time.Time `json:"updated_at,omitempty"`
}

// StablecoinConversion is the response of Get Stablecoin Conversion.
type StablecoinConversion struct {
	ID                 *string           `json:"id,omitempty"`
	ProfileID          *string           `json:"profile_id,omitempty"`
	Amount             *string           `json:"amount,omitempty"`
	SourceAsset        *string           `json:"source_asset,omitempty"`
	TargetAsset        *string           `json:"target_asset,omitempty"`
	Status             *string           `json:"status,omitempty"`
	RefID              *string           `json:"ref_id,omitempty"`
	IdentityID         *string           `json:"identity_id,omitempty"`
	AccountID          *string           `json:"account_id,omitempty"`
	CreatedAt          *time.Time        `json:"created_at,omitempty"`
	UpdatedAt          *time.Time        `json:"updated_at,omitempty"`
	SettledAt          *time.Time        `json:"settled_at,omitempty"`
	CancelledAt        *time.Time        `json:"cancelled_at,omitempty"`
	Metadata           map[string]string `json:"metadata,omitempty"`
	RecipientProfileID *string           `json:"recipient_profile_id,omitempty"`
}

// CreatedAtFilter mirrors the created_at.{lt,lte,eq,gte,gt} list parameters.
// Zero times are not sent.
type CreatedAtFilter struct {
	LT, LTE, EQ, GTE, GT time.Time
}

// ListFiatAccountsQuery holds the filters of List Fiat Accounts.
type ListFiatAccountsQuery struct {
	IDs            []string
	RefIDs         []string
	IncludeDeleted *bool
	CreatedAt      CreatedAtFilter
	Order          string // "" (server default), "ASC" or "DESC"
	MaxItems       int    // 0: no cap
}

// ListDepositAddressesQuery holds the filters of List Deposit Addresses.
type ListDepositAddressesQuery struct {
	ProfileIDs  []string
	IdentityIDs []string
	IDs         []string
	RefIDs      []string
	AccountIDs  []string
	Networks    []string
	CreatedAt   CreatedAtFilter
	Order       string
	MaxItems    int
}

// ListRewardClaimsQuery holds the filters of List claims.
type ListRewardClaimsQuery struct {
	PayoutGroupID   string
	OnchainStatuses []string
	AssetType       string
	Chain           string
	Jurisdiction    string
	StartTime       time.Time
	EndTime         time.Time
	MaxItems        int
}
