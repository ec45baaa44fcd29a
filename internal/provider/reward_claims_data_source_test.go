package provider

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const listRewardClaimsKey = "GET /v2/rewards/claims"

func timePtrKnown(t *time.Time) knownvalue.Check {
	return knownOrNull(t, func(t time.Time) knownvalue.Check { return knownvalue.StringExact(rfc3339(t)) })
}

func rewardClaimKnown(c emulator.RewardClaim) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id":                knownvalue.StringExact(c.ID),
		"payout_group_id":   strOrNull(c.PayoutGroupID),
		"claim_schedule_id": strOrNull(c.ClaimScheduleID),
		"amount":            strOrNull(c.Amount),
		"tx_hash":           ptrOrNull(c.TxHash),
		"addresses":         stringsKnown(c.Addresses),
		"error_message":     ptrOrNull(c.ErrorMessage),
		"blockchain":        strOrNull(c.Blockchain),
		"asset_type":        strOrNull(c.AssetType),
		"onchain_status":    strOrNull(c.OnchainStatus),
		"claim_type":        strOrNull(c.ClaimType),
		"submitted_at":      timePtrKnown(c.SubmittedAt),
		"confirmed_at":      timePtrKnown(c.ConfirmedAt),
		"created_at":        knownvalue.StringExact(rfc3339(c.CreatedAt)),
		"updated_at":        knownvalue.StringExact(rfc3339(c.UpdatedAt)),
	})
}

func TestAccRewardClaims_filters(t *testing.T) {
	t.Parallel()
	env, all, newest := seededItems(t, emulator.Options{RewardClaims: 80}, (*emulator.Server).RewardClaims)

	// The newest claim of each status, and one with several addresses.
	matches := map[string]func(emulator.RewardClaim) bool{
		"several addresses": func(c emulator.RewardClaim) bool { return len(c.Addresses) > 1 },
	}
	for _, status := range []string{"PENDING", "SUBMITTED", "CONFIRMED", "FAILED"} {
		matches["status "+status] = func(c emulator.RewardClaim) bool { return c.OnchainStatus == status }
	}
	whole := firstItemsWhole(t, all, newest, matches, rewardClaimKnown)

	group, chain, jurisdiction, asset := all[0].PayoutGroupID, all[3].Blockchain, all[7].Jurisdiction, all[5].AssetType
	statuses := []string{"CONFIRMED", "FAILED"}
	from, to := all[20].CreatedAt, all[40].CreatedAt

	testFilterCases(t, env, "platform_reward_claims", listRewardClaimsKey, []filterCase{
		{args: "", want: newest, requests: 1, extra: whole},
		{args: fmt.Sprintf("payout_group_id = %q", group), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return c.PayoutGroupID == group }), requests: 1},
		{args: "onchain_statuses = " + hclStrings(statuses...), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return slices.Contains(statuses, c.OnchainStatus) }), requests: 1},
		{args: fmt.Sprintf("asset_type = %q", asset), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return c.AssetType == asset }), requests: 1},
		{args: fmt.Sprintf("asset_type = %q\nonchain_statuses = %s", asset, hclStrings(statuses...)), want: idsWhere(all, false, func(c emulator.RewardClaim) bool {
			return c.AssetType == asset && slices.Contains(statuses, c.OnchainStatus)
		}), requests: 1},
		{args: fmt.Sprintf("chain = %q", chain), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return c.Blockchain == chain }), requests: 1},
		{args: fmt.Sprintf("jurisdiction = %q", jurisdiction), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return c.Jurisdiction == jurisdiction }), requests: 1},
		// Both bounds are inclusive.
		{args: fmt.Sprintf("start_time = %q\nend_time = %q", rfc3339(from), rfc3339(to)), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return !c.CreatedAt.Before(from) && !c.CreatedAt.After(to) }), requests: 1},
		{args: fmt.Sprintf("start_time = %q", rfc3339(to)), want: idsWhere(all, false, func(c emulator.RewardClaim) bool { return !c.CreatedAt.Before(to) }), requests: 1},
		{args: fmt.Sprintf("start_time = %q\nend_time = %q", rfc3339(from), rfc3339(from)), want: []string{all[20].ID}, requests: 1},
		{args: fmt.Sprintf("chain = %q\nonchain_statuses = [\"PENDING\"]\nend_time = %q", chain, rfc3339(to)), want: idsWhere(all, false, func(c emulator.RewardClaim) bool {
			return c.Blockchain == chain && c.OnchainStatus == "PENDING" && !c.CreatedAt.After(to)
		}), requests: 1},
		{args: "max_items = 4", want: newest[:4], requests: 1},
		// No such payout group: an empty list, not null.
		{args: `payout_group_id = "00000000-0000-4000-8000-000000000000"`, want: []string{}, requests: 1},
		{args: "onchain_statuses = []", want: []string{}, requests: 0},
	})
}

func TestAccRewardClaims_invalidFilters(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{RewardClaims: 5})
	many := make([]string, 101)
	for i := range many {
		many[i] = "PENDING"
	}
	cases := []struct{ args, err string }{
		{`onchain_statuses = ["DONE"]`, `Attribute onchain_statuses[0] value must be one of`},
		{`onchain_statuses = ["confirmed"]`, `Attribute onchain_statuses[0] value must be one of`},
		{"onchain_statuses = " + hclStrings(many...), "Attribute onchain_statuses list must contain at most 100 elements, got: 101"},
		{`start_time = "last week"`, `Invalid RFC3339 String Value`},
		{`end_time = "2024-02-30T00:00:00Z"`, `Invalid RFC3339 String Value`},
		{"start_time = \"2024-02-02T00:00:00Z\"\nend_time = \"2024-02-01T00:00:00Z\"", `start_time (2024-02-02T00:00:00Z) is after end_time (2024-02-01T00:00:00Z)`},
		{`payout_group_id = ""`, `Attribute payout_group_id string length must be at least 1, got: 0`},
		{`chain = ""`, `Attribute chain string length must be at least 1, got: 0`},
		{`jurisdiction = ""`, `Attribute jurisdiction string length must be at least 1, got: 0`},
		{`max_items = 0`, `Attribute max_items value must be at least 1, got: 0`},
	}
	testRejectedAtPlan(t, env, "platform_reward_claims", cases)
}
