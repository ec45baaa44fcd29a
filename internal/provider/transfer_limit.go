package provider

import (
	"github.com/platform/terraform-provider-platform/internal/client"
)

// A transfer limit (GET /transfer/limits/utilizations, published
// reference): its shape, the single source of its attributes.

var transferLimitShape = objectShape[client.TransferLimit]{
	stringField("id", "Id of the limit; null for a single-transaction limit, which has only a rule id.",
		func(l *client.TransferLimit) *string { return l.ID }),
	stringField("rule_id", "The limit rule this limit applies to.", func(l *client.TransferLimit) *string { return &l.RuleID }),
	stringListField("transfer_types", "The transfer types the limit applies to, in alphabetical order.",
		func(l *client.TransferLimit) []string { return l.TransferTypes }),
	stringField("period_seconds", "The number of seconds the limit is measured over, as a string; `0` for a "+
		"single-transaction limit.", func(l *client.TransferLimit) *string { return &l.PeriodSeconds }),
	stringField("limit", "The limit, as a decimal string in `limit_asset`.", func(l *client.TransferLimit) *string { return &l.Limit }),
	stringField("remaining", "The limit minus the transfers made in the period, as a decimal string; a "+
		"single-transaction limit's remaining is its limit.", func(l *client.TransferLimit) *string { return &l.Remaining }),
	stringField("limit_asset", "The asset of `limit` and `remaining`, for example `USD`.",
		func(l *client.TransferLimit) *string { return &l.LimitAsset }),
}
