package client_test

import (
	"errors"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A rule is created, found again through the list's ids and profile_id
// filters, refused under its ref_id with a 409 that does not carry it, and
// deleted.
func TestOrchestrationRulesAgainstEmulator(t *testing.T) {
	emu, c := moneyEmulator(t)
	ctx := t.Context()
	req := client.OrchestrationRuleRequest{RefID: "rule-1", Nickname: "n", ProfileID: "p", SourceAsset: "USDC",
		DestinationAsset: "USDG", Source: client.RuleRequestSource{Crypto: &client.RuleCryptoSourceRequest{Network: "ETHEREUM"}},
		Destination: &client.RuleRequestDestination{Profile: &client.RuleProfileDestination{ProfileID: "q"}}}
	made, err := c.CreateOrchestrationRule(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if *made.Status != client.RuleStatusPending || made.Source == nil || made.Source.Crypto == nil ||
		made.Source.Crypto.Address == nil || made.Destination == nil || made.Destination.Profile == nil {
		t.Fatalf("made %+v", made)
	}
	_, err = c.CreateOrchestrationRule(ctx, req)
	if !errors.Is(err, client.ErrConflict) {
		t.Errorf("a reused ref_id: %v, want a conflict", err)
	}
	if _, ok := client.ExistingTransfer(err); ok {
		t.Error("the conflict carries an object")
	}
	var listed []string
	for r, err := range c.OrchestrationRules(ctx, client.ListOrchestrationRulesQuery{ProfileID: "p", IDs: []string{*made.ID}}) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, *r.RefID)
	}
	if len(listed) != 1 || listed[0] != "rule-1" {
		t.Errorf("listed %v", listed)
	}
	deleted, err := c.DeleteOrchestrationRule(ctx, *made.ID)
	if err != nil || *deleted.Status != client.RuleStatusDeleted {
		t.Fatalf("delete: %v %+v", err, deleted)
	}
	if got := emu.OrchestrationRules(); len(got) != 1 || got[0].Status != client.RuleStatusDeleted {
		t.Errorf("rules %+v", got)
	}
}
