package client

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"time"
)

// Orchestration rules (POST, GET and DELETE /orchestration/rules): a
// standing instruction that routes every future deposit of its source
// asset to its source, converted to its destination asset, to its
// destination. The reference publishes no read by id and no update: a
// rule is read through the list's ids filter, and Delete makes it DELETED.

// Path and scopes of the orchestration rules, as published.
const (
	PathOrchestrationRules      = "/orchestration/rules"
	ScopeReadOrchestrationRule  = "orchestration:read_orchestration_rule"
	ScopeWriteOrchestrationRule = "orchestration:write_orchestration_rule"
)

// Statuses of an orchestration rule (OrchestrationRuleStatus).
const (
	RuleStatusActive   = "ACTIVE"
	RuleStatusDeleted  = "DELETED"
	RuleStatusPending  = "PENDING"
	RuleStatusRejected = "REJECTED"
)

// Values of the reference's orchestration rule enums.
var (
	// OrchestrationRuleStatuses are the statuses of a rule.
	OrchestrationRuleStatuses = []string{RuleStatusActive, RuleStatusDeleted, RuleStatusPending, RuleStatusRejected}
	// OrchestrationRuleAssets are the valid source and destination assets.
	OrchestrationRuleAssets = []string{"USDG", "PYUSD", "USDP", "USDC", "USD"}
	// OrchestrationRuleCryptoNetworks are the networks of a crypto source.
	OrchestrationRuleCryptoNetworks = []string{"ETHEREUM", "SOLANA", "STELLAR", "BASE", "POLYGON"}
	// OrchestrationRuleFiatNetworks are the networks of a fiat source.
	OrchestrationRuleFiatNetworks = []string{"WIRE", "CUBIX"}
	// OrchestrationRuleFiatAccountTypes are the account types of a fiat
	// source.
	OrchestrationRuleFiatAccountTypes = []string{"SWIFT", "ABA"}
)

// OrchestrationRuleRequest is the body of Create Orchestration Rule
// (CreateOrchestrationRuleRequest).
type OrchestrationRuleRequest struct {
	RefID            string                  `json:"ref_id,omitempty"`
	Nickname         string                  `json:"nickname,omitempty"`
	ProfileID        string                  `json:"profile_id"`
	IdentityID       string                  `json:"identity_id,omitempty"`
	AccountID        string                  `json:"account_id,omitempty"`
	SourceAsset      string                  `json:"source_asset"`
	DestinationAsset string                  `json:"destination_asset"`
	Source           RuleRequestSource       `json:"source"`
	Destination      *RuleRequestDestination `json:"destination,omitempty"`
}

// RuleRequestSource is the source of a create: one of Crypto and Fiat.
type RuleRequestSource struct {
	Crypto *RuleCryptoSourceRequest `json:"crypto,omitempty"`
	Fiat   *RuleFiatSourceRequest   `json:"fiat,omitempty"`
}

// RuleCryptoSourceRequest is a crypto source: deposits on a network.
type RuleCryptoSourceRequest struct {
	Network string `json:"network"`
}

// RuleFiatSourceRequest is a fiat source: deposits on a fiat network.
type RuleFiatSourceRequest struct {
	Network     string `json:"network"`
	AccountType string `json:"account_type"`
}

// RuleRequestDestination is the destination of a create: one of Crypto,
// Fiat and Profile.
type RuleRequestDestination struct {
	Crypto  *RuleCryptoDestination  `json:"crypto,omitempty"`
	Fiat    *RuleFiatDestination    `json:"fiat,omitempty"`
	Profile *RuleProfileDestination `json:"profile,omitempty"`
}

// RuleCryptoDestination is an address on a network.
type RuleCryptoDestination struct {
	Address string `json:"address"`
	Network string `json:"network"`
}

// RuleFiatDestination is a fiat account, with a memo.
type RuleFiatDestination struct {
	FiatAccountID string `json:"fiat_account_id"`
	Memo          string `json:"memo,omitempty"`
}

// RuleProfileDestination is a profile.
type RuleProfileDestination struct {
	ProfileID string `json:"profile_id"`
}

// OrchestrationRule is a rule as the service answers it.
type OrchestrationRule struct {
	ID               *string                  `json:"id"`
	RefID            *string                  `json:"ref_id"`
	Nickname         *string                  `json:"nickname"`
	ProfileID        *string                  `json:"profile_id"`
	IdentityID       *string                  `json:"identity_id"`
	AccountID        *string                  `json:"account_id"`
	Status           *string                  `json:"status"`
	SourceAsset      *string                  `json:"source_asset"`
	DestinationAsset *string                  `json:"destination_asset"`
	Source           *OrchestrationRuleSource `json:"source"`
	Destination      *OrchestrationRuleTarget `json:"destination"`
	CreatedAt        *time.Time               `json:"created_at"`
}

// OrchestrationRuleSource is what a rule watches: the deposit address made
// for a crypto source, the deposit instructions of a fiat one.
type OrchestrationRuleSource struct {
	Crypto *struct {
		AddressID *string `json:"address_id"`
		Address   *string `json:"address"`
		Network   *string `json:"network"`
	} `json:"crypto"`
	Fiat *struct {
		DepositInstructionsID *string `json:"deposit_instructions_id"`
		Network               *string `json:"network"`
		AccountType           *string `json:"account_type"`
		MemoID                *string `json:"memo_id"`
	} `json:"fiat"`
	Profile *struct {
		ProfileID *string `json:"profile_id"`
	} `json:"profile"`
}

// OrchestrationRuleTarget is a rule's destination as answered.
type OrchestrationRuleTarget struct {
	Crypto *struct {
		Address *string `json:"address"`
		Network *string `json:"network"`
	} `json:"crypto"`
	Fiat *struct {
		FiatAccountID *string `json:"fiat_account_id"`
		Memo          *string `json:"memo"`
	} `json:"fiat"`
	Profile *struct {
		ProfileID *string `json:"profile_id"`
	} `json:"profile"`
}

// ListOrchestrationRulesQuery holds the filters of List Orchestration
// Rules. The reference has no ref_id filter.
type ListOrchestrationRulesQuery struct {
	ProfileID        string
	Statuses         []string
	SourceAsset      string
	DestinationAsset string
	IDs              []string
	Order            string
	MaxItems         int
}

// CreateOrchestrationRule creates a rule. Like every POST, it is retried
// only when it carries a ref_id; a ref_id the service already knows is
// answered with the published 409, which does not carry the rule: the
// caller finds it through the list.
func (c *Client) CreateOrchestrationRule(ctx context.Context, req OrchestrationRuleRequest) (*OrchestrationRule, error) {
	return create(ctx, c, PathOrchestrationRules, ScopeWriteOrchestrationRule, req, decodeRuleAnswer)
}

// DeleteOrchestrationRule makes the rule id DELETED and returns it as the
// service answers it. Deleting a deleted rule changes nothing, so the
// request may be sent again.
func (c *Client) DeleteOrchestrationRule(ctx context.Context, id string) (*OrchestrationRule, error) {
	return onID(ctx, c, http.MethodDelete, PathOrchestrationRules, id, ScopeWriteOrchestrationRule, nil, decodeRuleAnswer)
}

// OrchestrationRules lists the rules matching q, following the cursors to
// the end with the largest page the service allows.
func (c *Client) OrchestrationRules(ctx context.Context, q ListOrchestrationRulesQuery) iter.Seq2[*OrchestrationRule, error] {
	v, err := listQuery(map[string][]string{"status": q.Statuses, "ids": q.IDs}, CreatedAtFilter{}, q.Order)
	for k, s := range map[string]string{
		"profile_id": q.ProfileID, "source_asset": q.SourceAsset, "destination_asset": q.DestinationAsset,
	} {
		if s != "" {
			v.Set(k, s)
		}
	}
	return list[OrchestrationRule](ctx, c, listCall{
		path: PathOrchestrationRules, scope: ScopeReadOrchestrationRule, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err,
	})
}

// decodeRuleAnswer decodes {"rule": {...}}, the answer of Create and Delete
// Orchestration Rule: the rule needs an id.
func decodeRuleAnswer(body []byte) (*OrchestrationRule, error) {
	var answer struct {
		Rule *OrchestrationRule `json:"rule"`
	}
	if err := decodeJSON(body, &answer); err != nil {
		return nil, err
	}
	if answer.Rule == nil {
		return nil, errors.New("the response has no rule")
	}
	if !hasID(answer.Rule.ID) {
		return nil, errors.New("the rule in the response has no id")
	}
	return answer.Rule, nil
}
