package client_test

import (
	"context"
	"errors"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
)

func TestProfilesAgainstEmulator(t *testing.T) {
	emu, c := moneyEmulator(t)
	ctx := t.Context()
	byNickname := func(nickname string) func(context.Context) (*client.Profile, bool, error) {
		return func(ctx context.Context) (*client.Profile, bool, error) {
			p, err := c.ProfileByNickname(ctx, nickname)
			return p, p != nil, err
		}
	}
	made, err := c.CreateProfile(ctx, client.CreateProfileRequest{Nickname: "Treasury", Description: "ops"}, byNickname("Treasury"))
	if err != nil {
		t.Fatal(err)
	}
	if made.Nickname != "Treasury" || made.Type != client.ProfileTypeNormal || made.Description == nil || *made.Description != "ops" {
		t.Errorf("made %+v", made)
	}

	// A nickname taken: 409 with the profile that holds it.
	_, err = c.CreateProfile(ctx, client.CreateProfileRequest{Nickname: "treasury"}, byNickname("treasury"))
	if holder, ok := client.ExistingProfile(err); !errors.Is(err, client.ErrConflict) || !ok || holder.ID != made.ID {
		t.Errorf("taken: %v", err)
	}

	// An answer lost after the service made the profile: the recheck finds
	// it by its nickname, and the POST is not sent again.
	emu.Faults.AcceptThenFail(1)
	before := emu.Counters.Requests("POST /v2/profiles")
	lost, err := c.CreateProfile(ctx, client.CreateProfileRequest{Nickname: "Payroll"}, byNickname("Payroll"))
	if err != nil {
		t.Fatal(err)
	}
	if n := emu.Counters.Requests("POST /v2/profiles") - before; n != 1 {
		t.Errorf("%d POSTs after a lost answer, want 1", n)
	}
	profiles := 0
	for p, err := range c.Profiles(ctx, client.ListProfilesQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Nickname == "Payroll" {
			profiles++
			if p.ID != lost.ID {
				t.Errorf("listed %s, recorded %s", p.ID, lost.ID)
			}
		}
	}
	if profiles != 1 {
		t.Errorf("%d Payroll profiles, want 1", profiles)
	}

	got, err := c.UpdateProfile(ctx, made.ID, "Treasury EU")
	if err != nil || got.Nickname != "Treasury EU" || got.ID != made.ID {
		t.Fatalf("update: %+v %v", got, err)
	}
	if got, err := c.GetProfile(ctx, made.ID); err != nil || got.Nickname != "Treasury EU" {
		t.Errorf("get: %+v %v", got, err)
	}

	// Deactivation is refused while a balance is above zero.
	emu.SetBalance(made.ID, "USD", "5")
	if err := c.DeactivateProfile(ctx, made.ID); !errors.Is(err, client.ErrConflict) {
		t.Errorf("deactivate with a balance: %v", err)
	}
	emu.SetBalance(made.ID, "USD", "0")
	if err := c.DeactivateProfile(ctx, made.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetProfile(ctx, made.ID); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("get after deactivate: %v", err)
	}
	if p, err := c.ProfileByNickname(ctx, "Treasury EU"); err != nil || p != nil {
		t.Errorf("deactivated profile listed: %+v %v", p, err)
	}
}
