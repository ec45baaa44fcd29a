package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewProfileResource is the constructor of platform_profile.
func NewProfileResource() resource.Resource { return newMoneyResource(&profileType) }

// profileType declares platform_profile on the money core: a profile, made
// by POST /profiles, its nickname changed in place by PUT /profiles/{id},
// read by GET /profiles/{id}, deactivated on destroy by PUT
// /profiles/{id}/deactivate. The create has no ref_id: its key is the
// nickname, unique at the service, which finds a profile again after a
// lost answer (lost_create.go).
var profileType = moneyType[profileArgs, *client.Profile, client.CreateProfileRequest]{
	objects: moneyObjects[*client.Profile]{
		words: profileWords,
		id: func(p *client.Profile) string {
			if p == nil {
				return ""
			}
			return p.ID
		},
		describe:  func(p *client.Profile) string { return "nickname " + shown(p.Nickname) },
		get:       readProfileByID,
		readScope: client.ScopeReadProfile,
		lists:     profileLists,
	},
	key:      &profileKey,
	schema:   profileSchema,
	identity: "profile",
	refresh:  refreshPolicy{scopeRefused: failKeepingState, gone: forgetWithWarning, another: failKeepingState},
	say: lifecycleWords[profileArgs]{
		gone: func(m shapedState[profileArgs]) message {
			id := id(m).ValueString()
			return message{"Profile " + id + " no longer active",
				fmt.Sprintf("The service no longer knows profile %s (%s) as an active profile: it was deactivated "+
					"outside Terraform. It was removed from the Terraform state, and Terraform plans to create it again.",
					id, shown(m.args.Nickname.ValueString()))}
		},
		readFailed: func(m shapedState[profileArgs], err error) message {
			id := id(m).ValueString()
			return message{failure("Reading profile "+id+" failed", err),
				fmt.Sprintf("Reading profile %s failed: %s.\n\nThe state is kept as it was. Check the provider "+
					"configuration and the service's availability, then try again.", id, err)}
		},
	},
	plan: typePlan[profileArgs]{
		unread:  func(a profileArgs) bool { return a.Nickname.IsNull() },
		summary: func(a profileArgs) string { return "profile " + shown(a.Nickname.ValueString()) },
	},
	create: typeCreate[profileArgs, *client.Profile, client.CreateProfileRequest]{
		request: func(_ context.Context, a profileArgs, _ string) (client.CreateProfileRequest, error) {
			body := client.CreateProfileRequest{Nickname: a.Nickname.ValueString()}
			if !a.Description.IsUnknown() {
				body.Description = a.Description.ValueString()
			}
			return body, nil
		},
		post: func(ctx context.Context, c *client.Client, body client.CreateProfileRequest) (*client.Profile, error) {
			return c.CreateProfile(ctx, body, func(ctx context.Context) (*client.Profile, bool, error) {
				p, err := c.ProfileByNickname(ctx, body.Nickname)
				return p, p != nil, err
			})
		},
		differences: func(body client.CreateProfileRequest, p *client.Profile) []string {
			return profileDifferences(body.Nickname, body.Description, p, client.ProfileTypeNormal)
		},
		created: func(_ context.Context, m *shapedState[profileArgs], p *client.Profile, _ createOutcome, _ *diag.Diagnostics) {
			*m = profileState(p)
		},
	},
	read: typeRead[profileArgs, *client.Profile]{
		recorded: func(context.Context, shapedState[profileArgs], *client.Profile) []string { return nil },
		refreshed: func(_ context.Context, m *shapedState[profileArgs], p *client.Profile, _ *diag.Diagnostics) {
			*m = profileState(p)
		},
		adopt: func(_ context.Context, m *shapedState[profileArgs], p *client.Profile, _ *diag.Diagnostics) {
			*m = profileState(p)
		},
	},
	change: typeChange[profileArgs]{
		planDestroy: func(ctx context.Context, run *moneyRun, state shapedState[profileArgs], diags *diag.Diagnostics) {
			planDeactivation(ctx, run, state, "Destroying", diags)
		},
		planChange: planProfileChange,
		update:     renameProfile,
		remove:     deactivateProfile,
	},
}

// profileArgs are the arguments of platform_profile; its id and type are
// computed.
type profileArgs struct {
	Nickname    types.String `tfsdk:"nickname"`
	Description types.String `tfsdk:"description"`
}

// profileState is the state of the profile p as the service answered it.
func profileState(p *client.Profile) shapedState[profileArgs] {
	return shapedState[profileArgs]{
		args: profileArgs{Nickname: types.StringValue(p.Nickname), Description: stringValue(p.Description)},
		computed: map[string]attr.Value{
			"id": types.StringValue(p.ID), "type": types.StringValue(p.Type),
		},
	}
}

func profileSchema() schema.Schema {
	stable := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return schema.Schema{
		MarkdownDescription: "A profile (`POST /profiles`, scope `funding:write_profile`): a set of balances every " +
			"transaction of the service is on. Profiles made here are of type `NORMAL`.\n\n" +
			"The nickname is unique at the service (compared without letter case). A profile whose nickname " +
			"another profile already has is refused at plan, naming that profile and the `import` block that " +
			"adopts it; nothing is sent. The create has no `ref_id`: when its answer is lost (a timeout, a reset " +
			"connection, server errors), the provider finds the profile by its nickname and records it instead of " +
			"sending the create again; an attempt it cannot settle is recorded with the time it started, and the " +
			"next apply adopts the profile it then finds only with evidence that the attempt made it: the nickname " +
			"and description the attempt sent, made by the service after the attempt started, and no other " +
			"profile that could be it. Otherwise (another team made a profile with that nickname since) the plan " +
			"and the apply refuse, naming that profile (id, nickname, when it was made) and the `import` block " +
			"that adopts it on purpose; it is never recorded, and no destroy deactivates it. A run killed during " +
			"the create records nothing: the next plan names the profile it made and offers the import.\n\n" +
			"Changing `nickname` updates the profile in place (`PUT /profiles/{id}`). Destroying it deactivates it " +
			"(`PUT /profiles/{id}/deactivate`): the service refuses a profile holding a balance above zero, and so " +
			"does the plan, which reads the balances (`GET /profiles/{id}/balances`, scope `funding:read_profile`) " +
			"and lists them; move the funds out first. The default profile cannot be deactivated.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifier of the profile at the service.",
				Computed:            true,
				PlanModifiers:       stable,
			},
			"nickname": schema.StringAttribute{
				MarkdownDescription: "Display name of the profile, unique at the service (compared without letter " +
					"case). Changing it updates the profile in place.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.RegexMatches(nonBlankNickname, "must not be only spaces")},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "Description of the profile, set when it is made. The service has no way to " +
					"change it: changing it replaces the profile (the old one is deactivated, which needs its " +
					"balances at zero). When unset, whatever the service holds is recorded.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplaceIfConfigured(),
				},
			},
			"type": schema.StringAttribute{
				MarkdownDescription: "Type of the profile: `NORMAL` for one made through the API, `DEFAULT` for the " +
					"one the service made (which can be imported, never deactivated).",
				Computed:      true,
				PlanModifiers: stable,
			},
		},
	}
}

// nonBlankNickname is a nickname with something besides spaces.
var nonBlankNickname = regexp.MustCompile(`\S`)

// profileKey is the key of a profile: its nickname, compared without
// letter case. The profile answer has no creation time: the list of the
// profiles made since the attempt started (created_at.gte) says whether a
// profile found after a lost answer is among them.
var profileKey = naturalKey[profileArgs, *client.Profile, client.CreateProfileRequest]{
	of: func(a profileArgs) string {
		if a.Nickname.IsNull() || a.Nickname.IsUnknown() {
			return ""
		}
		return nicknameKey(a.Nickname.ValueString())
	},
	attr: path.Root("nickname"),
	lookup: func(ctx context.Context, c *client.Client, a profileArgs) (keyFound[*client.Profile], error) {
		p, err := c.ProfileByNickname(ctx, a.Nickname.ValueString())
		return keyFound[*client.Profile]{obj: p, found: p != nil}, err
	},
	sent: func(body client.CreateProfileRequest) map[string]string {
		return map[string]string{"nickname": body.Nickname, "description": body.Description}
	},
	judge:    judgeLostProfile,
	refound:  true,
	replaces: profileReplaced,
	conflict: func(a profileArgs, err error, diags *diag.Diagnostics) {
		if holder, ok := client.ExistingProfile(err); ok {
			text := nicknameTaken(holder, "The service refused the create: nothing was made.")
			diags.AddAttributeError(path.Root("nickname"), text.summary, text.detail)
			return
		}
		diags.AddAttributeError(path.Root("nickname"), failure("Profile not created", err),
			fmt.Sprintf("The service refused to create profile %s: %s. A nickname is unique at the service: a "+
				"profile that has it is listed by terraform query or the platform_profile list resource.",
				shown(a.Nickname.ValueString()), err))
	},
	say: keyWords[profileArgs, *client.Profile]{
		notLookedUp: func(a profileArgs, err error) message {
			return message{failure("Profiles not read at plan", err),
				fmt.Sprintf("Looking the nickname %s up among the profiles failed: %s. The apply looks it up again "+
					"before it creates the profile, and never takes over a profile that already has it.",
					shown(a.Nickname.ValueString()), err)}
		},
		lookupFailed: func(a profileArgs, err error) message {
			return message{failure("Profiles not read", err),
				fmt.Sprintf("Looking the nickname %s up among the profiles failed: %s.\n\nNothing was sent: the "+
					"nickname is looked up before a profile is made, so that a profile is never made twice.",
					shown(a.Nickname.ValueString()), err)}
		},
		taken: func(_ profileArgs, p *client.Profile, sent string) message { return nicknameTaken(p, sent) },
		notJudgedAtPlan: func(a profileArgs, p *client.Profile, err error) message {
			return message{failure("Profiles not read at plan", err),
				fmt.Sprintf("Profile %s has the nickname %s, and this state recorded a create of it whose answer was "+
					"lost. Listing the profiles made since that attempt started failed: %s. The apply checks again "+
					"that the attempt made it before it records it, and refuses otherwise.", shown(p.ID),
					shown(a.Nickname.ValueString()), err)}
		},
		notJudged: func(_ profileArgs, p *client.Profile, why string, err error, sent string) message {
			return message{failure("Profiles not read", err),
				fmt.Sprintf("Profile %s has the nickname %s, and %s. Listing the profiles made since that attempt "+
					"started, to check that it made this one, failed: %s.\n\n%s Nothing was recorded: apply again once "+
					"the service answers.", shown(p.ID), shown(p.Nickname), why, err, sent)}
		},
		notItsOwn: func(_ profileArgs, p *client.Profile, found foundObject, missing []string, sent string) message {
			return message{"Profile " + shown(p.ID) + " was not made by the lost create",
				fmt.Sprintf("This state recorded a create of profile %s whose answer was lost, and the service now has a "+
					"profile with that nickname:\n  id: %s\n  nickname: %s\n  created_at: %s\n\nNothing shows that the lost "+
					"create made it:\n%s\n\nSomeone else may have made it, so it is not recorded as this resource's, and "+
					"no destroy of this resource deactivates it. %s\n\nIf it is the profile this configuration means to "+
					"manage, import it on purpose:\n\n%s\n\n(or terraform import platform_profile.<name> %s). Otherwise "+
					"choose another nickname.", shown(p.Nickname), shown(p.ID), shown(p.Nickname), found.made,
					bulletList(missing), sent, profileImportBlock(p.ID), p.ID)}
		},
		foundAtPlan: func(a profileArgs, p *client.Profile, found foundObject) message {
			return message{"Profile was created earlier",
				fmt.Sprintf("Profile %s has the nickname %s; it was made by the attempt this state recorded and the "+
					"service never confirmed (%s). Applying records it and sends nothing.", shown(p.ID),
					shown(a.Nickname.ValueString()), found.made)}
		},
		recorded: "this state recorded an attempt to make it that the service never confirmed",
		lost: func(err error) string {
			return fmt.Sprintf("the create's answer was lost (%s), and the profile it made was found by its nickname", err)
		},
		adopted: func(_ profileArgs, p *client.Profile, why string, found foundObject) message {
			return message{"Profile was created earlier, not created again",
				fmt.Sprintf("Profile %s has the nickname %s: %s. It was not created again; the state now holds %s.",
					shown(p.ID), shown(p.Nickname), why+"; "+found.made, shown(p.ID))}
		},
		differs: func(_ profileArgs, p *client.Profile, why string, found foundObject, d []string) message {
			return message{"Profile " + shown(p.ID) + " differs from the configuration",
				fmt.Sprintf("Profile %s has the nickname %s and %s, but it differs from the configuration:\n%s\n\n"+
					"Nothing was sent and nothing was recorded. Import it to manage it:\n\n%s", shown(p.ID),
					shown(p.Nickname), why+"; "+found.made, bulletList(d), profileImportBlock(p.ID))}
		},
		refused: func(a profileArgs, err error) message {
			detail := fmt.Sprintf("The service refused to create profile %s, so nothing was made: %s.",
				shown(a.Nickname.ValueString()), err)
			if scopeRefused(err) {
				detail += fmt.Sprintf("\n\nMaking a profile needs the OAuth scope %s: have it granted to the client "+
					"credentials, and if the provider's scopes argument pins the token's scopes, include it there.",
					client.ScopeWriteProfile)
			}
			return message{failure("Profile not created", err), detail}
		},
		answeredDifferently: func(a profileArgs, p *client.Profile, d []string) message {
			return message{"Profile answered differently from the request",
				fmt.Sprintf("The service answered the create of profile %s with profile %s, which differs from the "+
					"request:\n%s\n\nThe provider does not record an answer it cannot trust, so nothing was recorded. "+
					"If the profile was made, the next plan names it and shows the import block that adopts it.",
					shown(a.Nickname.ValueString()), shown(p.ID), bulletList(d))}
		},
		unconfirmed: func(a profileArgs, err error) string {
			return fmt.Sprintf("The create of profile %s was sent, but the service did not confirm it: %s.\n\nIt may or may "+
				"not have made the profile, and the profiles did not show it yet. The state records the attempt: "+
				"applying again looks the nickname up, and records the profile it finds when it matches the "+
				"configuration (nothing is sent again), or creates it.", shown(a.Nickname.ValueString()), err)
		},
		notConfirmed: func(a profileArgs) message {
			return message{"Profile not confirmed",
				fmt.Sprintf("The last create of profile %s ended without confirmation from the service. Terraform plans "+
					"to create it again: the apply looks the nickname up first, and records the profile it finds when it "+
					"matches the configuration.", shown(a.Nickname.ValueString()))}
		},
	},
}

// judgeLostProfile is what the profile p, found under the nickname of a
// create whose answer was lost (attempt; recorded is false when the state
// holds no record of its start), shows of the evidence: the nickname and
// description it holds, whether the list of the profiles made since the
// attempt started lists it, and the other profiles of that nickname it
// lists.
func judgeLostProfile(ctx context.Context, c *client.Client, attempt lostCreate, recorded bool, p *client.Profile) (foundObject, error) {
	found := foundObject{holds: map[string]*string{"nickname": &p.Nickname, "description": p.Description},
		made: "at a time the service does not report"}
	if !recorded {
		return found, nil
	}
	since := attempt.Started.UTC()
	q := client.ListProfilesQuery{Nickname: attempt.Sent["nickname"], CreatedAt: client.CreatedAtFilter{GTE: since}}
	for made, err := range c.Profiles(ctx, q) {
		if err != nil {
			return found, err
		}
		switch {
		case made.ID == p.ID:
			found.madeSince = true
		case strings.EqualFold(made.Nickname, attempt.Sent["nickname"]):
			found.others = append(found.others, made.ID)
		}
	}
	found.made = "before the attempt started: the profiles made since " + attempt.startedText() + " do not list it"
	if found.madeSince {
		found.made = "after the attempt started: the profiles made since " + attempt.startedText() + " list it"
	}
	return found, nil
}

// nicknameTaken is the error of a create whose nickname the profile
// existing has: its id and the import block that adopts it.
func nicknameTaken(existing *client.Profile, sent string) message {
	return message{"Nickname already used by profile " + shown(existing.ID),
		fmt.Sprintf("Profile %s already has the nickname %s (nicknames are unique at the service, compared without "+
			"letter case), and this configuration did not make it: a create never takes over a profile. %s\n\n"+
			"To manage that profile with this resource, import it:\n\n%s\n\n(or terraform import "+
			"platform_profile.<name> %s). Otherwise choose another nickname.", shown(existing.ID),
			shown(existing.Nickname), sent, profileImportBlock(existing.ID), existing.ID)}
}

// profileReplaced reports a new description, which replaces the profile
// (RequiresReplaceIfConfigured; the framework does not show ModifyPlan
// what the attributes' plan modifiers decided). Terraform plans the create
// of the replacement next, without the state: the profile it finds under
// the nickname is this one, which the replacement deactivates first.
func profileReplaced(plan, state profileArgs) bool {
	d := plan.Description
	return !d.IsUnknown() && !d.IsNull() && d.ValueString() != state.Description.ValueString()
}

// planProfileChange plans a changed profile: a new description replaces
// it, which deactivates it first; a new nickname must be free.
func planProfileChange(ctx context.Context, run *moneyRun, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[profileArgs]) {
	if run == nil {
		return
	}
	plan, d := getShaped[profileArgs](ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if profileReplaced(plan.args, state.args) {
		planDeactivation(ctx, run, state, "Replacing", &resp.Diagnostics)
		return
	}
	if n := plan.args.Nickname; !n.IsUnknown() && !strings.EqualFold(n.ValueString(), state.args.Nickname.ValueString()) {
		planNickname(ctx, run, n.ValueString(), id(state).ValueString(), &resp.Diagnostics)
	}
}

// planDeactivation refuses the plan (verb: "Destroying", "Replacing") of a
// profile the service would refuse to deactivate: the default profile, or
// one holding a balance above zero (read once, its only request). A read
// that fails leaves the decision to the service at apply, with a warning.
func planDeactivation(ctx context.Context, run *moneyRun, state shapedState[profileArgs], verb string, diags *diag.Diagnostics) {
	id := state.str("id").ValueString()
	if state.str("id").IsNull() || state.str("id").IsUnknown() || id == "" {
		return // An unconfirmed create: nothing to deactivate.
	}
	if state.str("type").ValueString() == client.ProfileTypeDefault {
		diags.AddError(verb+" the default profile is refused",
			fmt.Sprintf("Profile %s (%s) is the default profile, which the service never deactivates. To stop "+
				"managing it with Terraform, remove it from the state instead (a removed block, or terraform state "+
				"rm).", id, shown(state.args.Nickname.ValueString())))
		return
	}
	balances, err := run.client.GetProfileBalances(ctx, id)
	if err != nil {
		diags.AddWarning(failure("Balances of profile "+id+" not read at plan", err),
			fmt.Sprintf("%s profile %s (%s) deactivates it, which the service refuses while it holds a balance "+
				"above zero. Its balances could not be read to check that at plan: %s. The service checks it again "+
				"at apply.", verb, id, shown(state.args.Nickname.ValueString()), err))
		return
	}
	held := heldBalances(balances)
	if len(held) == 0 {
		return
	}
	diags.AddError("Profile "+id+" holds a balance above zero",
		fmt.Sprintf("%s profile %s (%s) deactivates it, and the service refuses to deactivate a profile holding a "+
			"balance above zero. It holds:\n%s\n\nMove these funds to another profile or withdraw them, then plan "+
			"again. Nothing was sent.", verb, id, shown(state.args.Nickname.ValueString()), bulletList(held)))
}

// planNickname refuses a rename to a nickname another profile has.
func planNickname(ctx context.Context, run *moneyRun, nickname, self string, diags *diag.Diagnostics) {
	existing, err := run.client.ProfileByNickname(ctx, nickname)
	if err != nil || existing == nil || existing.ID == self {
		return // The service checks it again at apply.
	}
	diags.AddAttributeError(path.Root("nickname"), "Nickname already used by profile "+shown(existing.ID),
		fmt.Sprintf("Profile %s already has the nickname %s, and nicknames are unique at the service (compared "+
			"without letter case): renaming profile %s to it would be refused. Choose another nickname. Nothing "+
			"was sent.", shown(existing.ID), shown(existing.Nickname), self))
}

// profileDifferences lists how the answered profile p differs from what
// was asked: its nickname (without letter case, as the service compares
// it), its description when one was asked, its id, and its type (wantType:
// NORMAL for a profile made here, the recorded one for an update).
func profileDifferences(nickname, description string, p *client.Profile, wantType string) []string {
	var d []string
	if why := unusableID(p.ID); why != "" {
		d = append(d, "id: answered "+why)
	}
	if !strings.EqualFold(p.Nickname, nickname) {
		d = append(d, fmt.Sprintf("nickname: requested %q, answered %q", nickname, shown(p.Nickname)))
	}
	if description != "" && deref(p.Description) != description {
		d = append(d, fmt.Sprintf("description: requested %q, answered %q", description, shown(deref(p.Description))))
	}
	if p.Type != wantType {
		d = append(d, fmt.Sprintf("type: expected %q, answered %q", wantType, shown(p.Type)))
	}
	return d
}

// readProfileByID reads the active profile id: client.ErrNotFound when the
// service knows no active profile with it.
func readProfileByID(ctx context.Context, c *client.Client, id string) (*client.Profile, error) {
	return c.GetProfile(ctx, id)
}

// profileLists reads many active profiles at once through their list,
// filtered by ids (the list takes no ref_ids; see listedBy). The list, as
// the read by id, answers active profiles only: one it does not answer is
// read alone by id.
var profileLists = listedBy(
	func(ctx context.Context, c *client.Client, ids, _ []string) iter.Seq2[*client.Profile, error] {
		return c.Profiles(ctx, client.ListProfilesQuery{IDs: ids})
	},
	func(p *client.Profile) string { return p.ID },
	nil)

// renameProfile changes the nickname of the profile in place (the one
// change that is not a replacement).
func renameProfile(ctx context.Context, run *moneyRun, plan, state shapedState[profileArgs], diags *diag.Diagnostics) (shapedState[profileArgs], bool) {
	id := id(state).ValueString()
	nickname := plan.args.Nickname.ValueString()
	if nickname == state.args.Nickname.ValueString() {
		return state, true
	}
	p, err := run.client.UpdateProfile(ctx, id, nickname)
	if err != nil {
		detail := fmt.Sprintf("The service did not rename profile %s (%s) to %s: %s.\n\nThe state keeps the "+
			"nickname before the update.", id, shown(state.args.Nickname.ValueString()), shown(nickname), err)
		if holder, ok := client.ExistingProfile(err); ok && errors.Is(err, client.ErrConflict) {
			detail += fmt.Sprintf(" Profile %s already has that nickname: choose another one.", shown(holder.ID))
		} else if createOutcomeUnknown(err, client.PathProfiles+"/"+id) {
			detail += " The answer was lost: the next refresh reads the nickname the profile has, and applying " +
				"again sends the same update."
		}
		diags.AddError(failure("Profile "+id+" not renamed", err), detail)
		return state, false
	}
	d := profileDifferences(nickname, knownString(plan.args.Description), p, state.str("type").ValueString())
	if p.ID != id {
		d = append(d, fmt.Sprintf("id: requested %q, answered %q", id, shown(p.ID)))
	}
	if len(d) > 0 {
		anotherObject(profileWords, id, d, diags)
		return state, false
	}
	return profileState(p), true
}

// deactivateProfile deactivates the profile on destroy; one already gone
// is forgotten.
func deactivateProfile(ctx context.Context, run *moneyRun, state shapedState[profileArgs], diags *diag.Diagnostics) {
	id := id(state).ValueString()
	err := run.client.DeactivateProfile(ctx, id)
	switch {
	case err == nil:
		tflog.Info(ctx, "profile deactivated", map[string]any{"id": id})
	case errors.Is(err, client.ErrNotFound):
		tflog.Info(ctx, "profile already gone", map[string]any{"id": id})
	default:
		diags.AddError(failure("Deactivating profile "+id+" failed", err),
			fmt.Sprintf("The service did not deactivate profile %s (%s): %s.\n\nIt stays in the state. The service "+
				"refuses a profile holding a balance above zero (data source platform_profile_balances lists them) "+
				"and the default profile; destroy again once that is settled.", id, shown(state.args.Nickname.ValueString()), err))
	}
}

// NewProfileListResource is the platform_profile list resource.
func NewProfileListResource() list.ListResource { return newListResource(&profileList) }

// profileList declares the platform_profile list resource: its filters
// are those of List Profiles.
var profileList = listDeclaration[client.ListProfilesQuery, client.Profile]{
	typeName: "platform_profile",
	description: "Finds the active profiles of the account (`GET /profiles`, scope `funding:read_profile`), " +
		"oldest first, the default profile among them. Configuration generated from the results imports them by " +
		"identity; nothing is sent.",
	filters: listFilters[client.ListProfilesQuery]{
		arrayFilter("ids", "Only the profiles with these ids.",
			func(q *client.ListProfilesQuery) *[]string { return &q.IDs }),
		stringFilter("nickname", "Only the profiles whose nickname begins with this text, compared without letter case "+
			"(as the service filters).", func(q *client.ListProfilesQuery) *string { return &q.Nickname }),
	},
	limit: func(q *client.ListProfilesQuery) *int { return &q.MaxItems },
	list:  (*client.Client).Profiles,
	describe: func(p *client.Profile) (shapedWriter, string, string) {
		var m profileModel
		m.fromAPI(p)
		return m, p.ID, fmt.Sprintf("%s (%s)", p.Nickname, p.Type)
	},
}
