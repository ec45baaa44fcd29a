package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ resource.Resource                = (*profileResource)(nil)
	_ resource.ResourceWithConfigure   = (*profileResource)(nil)
	_ resource.ResourceWithImportState = (*profileResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*profileResource)(nil)
	_ resource.ResourceWithIdentity    = (*profileResource)(nil)
)

// NewProfileResource is the constructor of platform_profile.
func NewProfileResource() resource.Resource { return &profileResource{} }

// profileResource is a profile: made by POST /profiles, its nickname
// changed in place by PUT /profiles/{id}, read by GET /profiles/{id},
// deactivated on destroy by PUT /profiles/{id}/deactivate. The create has
// no ref_id: the nickname, unique at the service, is what finds a profile
// again after a lost answer.
type profileResource struct {
	data *providerData
}

func (r *profileResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_profile"
}

func (r *profileResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("profile")
}

func (r *profileResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *profileResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	stable := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
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

// getProfile reads a profile model from the state, plan or configuration.
func getProfile(ctx context.Context, src getter) (profileModel, diag.Diagnostics) {
	var m profileModel
	diags := src.Get(ctx, &m)
	return m, diags
}

func (r *profileResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data == nil {
		return
	}
	switch {
	case req.Plan.Raw.IsNull() && !req.State.Raw.IsNull():
		state, d := getProfile(ctx, req.State)
		resp.Diagnostics.Append(d...)
		if !resp.Diagnostics.HasError() {
			r.planDeactivation(ctx, state, "Destroying", &resp.Diagnostics)
		}
	case req.State.Raw.IsNull() && !req.Plan.Raw.IsNull():
		if req.Config.Raw.IsFullyKnown() {
			r.planCreate(ctx, req, resp)
		}
	case !req.State.Raw.IsNull() && !req.Plan.Raw.IsNull():
		state, d := getProfile(ctx, req.State)
		resp.Diagnostics.Append(d...)
		plan, d := getProfile(ctx, req.Plan)
		resp.Diagnostics.Append(d...)
		if resp.Diagnostics.HasError() {
			return
		}
		// A new description replaces the profile (RequiresReplaceIfConfigured;
		// the framework does not show ModifyPlan what the attributes' plan
		// modifiers decided).
		if d := plan.Description; !d.IsUnknown() && !d.IsNull() && d.ValueString() != state.Description.ValueString() {
			r.planDeactivation(ctx, state, "Replacing", &resp.Diagnostics)
			// Terraform plans the create of the replacement next, without
			// the state: the profile it finds under the nickname is this one,
			// which the replacement deactivates first.
			r.data.run.attempts.add(profileReplacedNamespace, replacedKey(plan.Nickname.ValueString(), state.ID.ValueString()))
			return
		}
		if n := plan.Nickname; !n.IsUnknown() && !strings.EqualFold(n.ValueString(), state.Nickname.ValueString()) {
			r.planNickname(ctx, n.ValueString(), state.ID.ValueString(), &resp.Diagnostics)
		}
	}
}

// planDeactivation refuses the plan (verb: "Destroying", "Replacing") of a
// profile the service would refuse to deactivate: the default profile, or
// one holding a balance above zero (read once, its only request). A read
// that fails leaves the decision to the service at apply, with a warning.
func (r *profileResource) planDeactivation(ctx context.Context, state profileModel, verb string, diags *diag.Diagnostics) {
	id := state.ID.ValueString()
	if state.ID.IsNull() || state.ID.IsUnknown() || id == "" {
		return // An unconfirmed create: nothing to deactivate.
	}
	if state.Type.ValueString() == client.ProfileTypeDefault {
		diags.AddError(verb+" the default profile is refused",
			fmt.Sprintf("Profile %s (%s) is the default profile, which the service never deactivates. To stop "+
				"managing it with Terraform, remove it from the state instead (a removed block, or terraform state "+
				"rm).", id, shown(state.Nickname.ValueString())))
		return
	}
	balances, err := r.data.client.GetProfileBalances(ctx, id)
	if err != nil {
		diags.AddWarning(failure("Balances of profile "+id+" not read at plan", err),
			fmt.Sprintf("%s profile %s (%s) deactivates it, which the service refuses while it holds a balance "+
				"above zero. Its balances could not be read to check that at plan: %s. The service checks it again "+
				"at apply.", verb, id, shown(state.Nickname.ValueString()), err))
		return
	}
	held := heldBalances(balances)
	if len(held) == 0 {
		return
	}
	diags.AddError("Profile "+id+" holds a balance above zero",
		fmt.Sprintf("%s profile %s (%s) deactivates it, and the service refuses to deactivate a profile holding a "+
			"balance above zero. It holds:\n%s\n\nMove these funds to another profile or withdraw them, then plan "+
			"again. Nothing was sent.", verb, id, shown(state.Nickname.ValueString()), bulletList(held)))
}

// planCreate looks the nickname of a new profile up at plan: one another
// profile has refuses the plan (with its id and import block), unless this
// state recorded an unconfirmed attempt to make it, in which case the
// apply records it. A list the plan cannot read is left to the apply,
// which looks the nickname up again before it sends anything.
func (r *profileResource) planCreate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data.run.pinnedScopeRefused(profileWords.scope, profileWords.resourceType, &resp.Diagnostics) {
		return
	}
	config, d := getProfile(ctx, req.Config)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() || config.Nickname.IsNull() {
		return
	}
	nickname := config.Nickname.ValueString()
	// The apply's destroy of the unconfirmed state receives the plan's
	// private state, not the state's: it carries the attempt there.
	if attempt, recorded := r.data.run.attempts.lostCreate(profileWords.refNamespace, nicknameKey(nickname)); recorded {
		resp.Diagnostics.Append(attempt.record(ctx, resp.Private)...)
	}
	existing, err := r.data.client.ProfileByNickname(ctx, nickname)
	if err != nil {
		r.data.run.warnOnce("profile-plan-lookup", func() {
			resp.Diagnostics.AddWarning(failure("Profiles not read at plan", err),
				fmt.Sprintf("Looking the nickname %s up among the profiles failed: %s. The apply looks it up again "+
					"before it creates the profile, and never takes over a profile that already has it.",
					shown(nickname), err))
		})
		return
	}
	if existing == nil {
		return
	}
	if r.data.run.attempts.has(profileReplacedNamespace, replacedKey(nickname, existing.ID)) {
		return
	}
	if r.data.run.attempts.has(profileWords.refNamespace, nicknameKey(nickname)) {
		attempt, recorded := r.data.run.attempts.lostCreate(profileWords.refNamespace, nicknameKey(nickname))
		found, missing, err := r.judgeLost(ctx, attempt, recorded, existing)
		switch {
		case err != nil:
			resp.Diagnostics.AddWarning(failure("Profiles not read at plan", err),
				fmt.Sprintf("Profile %s has the nickname %s, and this state recorded a create of it whose answer was "+
					"lost. Listing the profiles made since that attempt started failed: %s. The apply checks again "+
					"that the attempt made it before it records it, and refuses otherwise.", shown(existing.ID),
					shown(nickname), err))
		case len(missing) > 0:
			notMadeByAttempt(existing, found, missing, "Nothing was sent.", &resp.Diagnostics)
		default:
			resp.Diagnostics.AddWarning("Profile was created earlier",
				fmt.Sprintf("Profile %s has the nickname %s; it was made by the attempt this state recorded and the "+
					"service never confirmed (%s). Applying records it and sends nothing.", shown(existing.ID),
					shown(nickname), found.made))
		}
		return
	}
	nicknameTakenError(existing, "Nothing was sent.", &resp.Diagnostics)
}

// judgeLost judges the profile p, found under the nickname of a create
// whose answer was lost (attempt; recorded is false when the state holds
// no record of its start): it is that attempt's only when it holds the
// nickname and description the attempt sent, the service made it after
// the attempt started, and no other profile made since could be it. The
// profile answer has no creation time: the list of the profiles made since
// the attempt started (created_at.gte) says whether it is among them.
// missing lists what is not shown (none: it is the attempt's); err is a
// list that failed.
func (r *profileResource) judgeLost(ctx context.Context, attempt lostCreate, recorded bool, p *client.Profile) (foundObject, []string, error) {
	found := foundObject{holds: map[string]*string{"nickname": &p.Nickname, "description": p.Description},
		made: "at a time the service does not report"}
	if recorded {
		since := attempt.Started.UTC()
		q := client.ListProfilesQuery{Nickname: attempt.Sent["nickname"], CreatedAt: client.CreatedAtFilter{GTE: since}}
		for made, err := range r.data.client.Profiles(ctx, q) {
			if err != nil {
				return found, nil, err
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
	}
	return found, attempt.missing(recorded, found), nil
}

// notMadeByAttempt is the error of a profile found under the nickname of a
// create whose answer was lost, which nothing shows that create made: its
// id, nickname and creation, what is missing, and the import block that
// adopts it on purpose.
func notMadeByAttempt(p *client.Profile, found foundObject, missing []string, sent string, diags *diag.Diagnostics) {
	diags.AddAttributeError(path.Root("nickname"), "Profile "+shown(p.ID)+" was not made by the lost create",
		fmt.Sprintf("This state recorded a create of profile %s whose answer was lost, and the service now has a "+
			"profile with that nickname:\n  id: %s\n  nickname: %s\n  created_at: %s\n\nNothing shows that the lost "+
			"create made it:\n%s\n\nSomeone else may have made it, so it is not recorded as this resource's, and "+
			"no destroy of this resource deactivates it. %s\n\nIf it is the profile this configuration means to "+
			"manage, import it on purpose:\n\n%s\n\n(or terraform import platform_profile.<name> %s). Otherwise "+
			"choose another nickname.", shown(p.Nickname), shown(p.ID), shown(p.Nickname), found.made,
			bulletList(missing), sent, profileImportBlock(p.ID), p.ID))
}

// profileReplacedNamespace keys, in the run's attempt set, the profiles a plan
// replaces by their nickname and id (replacedKey): the plan of the create
// of the replacement, made without the state, does not take the profile it
// replaces for another profile holding the nickname.
const profileReplacedNamespace = "profile replaced"

func replacedKey(nickname, id string) string { return nicknameKey(nickname) + "\x00" + id }

// planNickname refuses a rename to a nickname another profile has.
func (r *profileResource) planNickname(ctx context.Context, nickname, self string, diags *diag.Diagnostics) {
	existing, err := r.data.client.ProfileByNickname(ctx, nickname)
	if err != nil || existing == nil || existing.ID == self {
		return // The service checks it again at apply.
	}
	diags.AddAttributeError(path.Root("nickname"), "Nickname already used by profile "+shown(existing.ID),
		fmt.Sprintf("Profile %s already has the nickname %s, and nicknames are unique at the service (compared "+
			"without letter case): renaming profile %s to it would be refused. Choose another nickname. Nothing "+
			"was sent.", shown(existing.ID), shown(existing.Nickname), self))
}

// nicknameTakenError is the error of a create whose nickname the profile
// existing has: its id and the import block that adopts it.
func nicknameTakenError(existing *client.Profile, sent string, diags *diag.Diagnostics) {
	diags.AddAttributeError(path.Root("nickname"), "Nickname already used by profile "+shown(existing.ID),
		fmt.Sprintf("Profile %s already has the nickname %s (nicknames are unique at the service, compared without "+
			"letter case), and this configuration did not make it: a create never takes over a profile. %s\n\n"+
			"To manage that profile with this resource, import it:\n\n%s\n\n(or terraform import "+
			"platform_profile.<name> %s). Otherwise choose another nickname.", shown(existing.ID),
			shown(existing.Nickname), sent, profileImportBlock(existing.ID), existing.ID))
}

func (r *profileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getProfile(ctx, req.Plan)
	defer forgetLostCreate(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.data.client
	nickname := plan.Nickname.ValueString()
	lctx, served := client.WithServedAt(ctx)
	existing, err := c.ProfileByNickname(lctx, nickname)
	if err != nil {
		resp.Diagnostics.AddError(failure("Profiles not read", err),
			fmt.Sprintf("Looking the nickname %s up among the profiles failed: %s.\n\nNothing was sent: the "+
				"nickname is looked up before a profile is made, so that a profile is never made twice.",
				shown(nickname), err))
		return
	}
	if existing != nil {
		if !r.data.run.attempts.has(profileWords.refNamespace, nicknameKey(nickname)) {
			nicknameTakenError(existing, "Nothing was sent.", &resp.Diagnostics)
			return
		}
		attempt, recorded := r.data.run.attempts.lostCreate(profileWords.refNamespace, nicknameKey(nickname))
		r.adoptLost(ctx, plan, attempt, recorded, existing, "this state recorded an attempt to make it that the "+
			"service never confirmed", "Nothing was sent.", resp)
		return
	}
	body := client.CreateProfileRequest{Nickname: nickname}
	if !plan.Description.IsUnknown() {
		body.Description = plan.Description.ValueString()
	}
	// The attempt is recorded before it is sent: the state an unconfirmed
	// create leaves carries it, for the judgement of what the next apply
	// finds (lost_create.go).
	attempt := newLostCreate(served.Last(), r.data.run.clock(), map[string]string{"nickname": nickname,
		"description": body.Description})
	resp.Diagnostics.Append(attempt.record(ctx, resp.Private)...)
	if resp.Diagnostics.HasError() {
		return
	}
	lookup := func(ctx context.Context) (*client.Profile, bool, error) {
		p, err := c.ProfileByNickname(ctx, nickname)
		return p, p != nil, err
	}
	made, err := c.CreateProfile(ctx, body, lookup)
	switch {
	case err == nil:
	case errors.Is(err, client.ErrConflict):
		if holder, ok := client.ExistingProfile(err); ok {
			nicknameTakenError(holder, "The service refused the create: nothing was made.", &resp.Diagnostics)
			return
		}
		resp.Diagnostics.AddAttributeError(path.Root("nickname"), failure("Profile not created", err),
			fmt.Sprintf("The service refused to create profile %s: %s. A nickname is unique at the service: a "+
				"profile that has it is listed by terraform query or the platform_profile list resource.", shown(nickname), err))
		return
	case createOutcomeUnknown(err, profileWords.path):
		// The answer was lost: the nickname says whether the profile was made.
		if p, lerr := c.ProfileByNickname(ctx, nickname); lerr == nil && p != nil {
			r.adoptLost(ctx, plan, attempt, true, p, fmt.Sprintf("the create's answer was lost (%s), and the "+
				"profile it made was found by its nickname", err), "The create was sent and its answer lost.", resp)
			return
		}
		r.recordUnconfirmed(ctx, plan, err, resp)
		return
	default:
		detail := fmt.Sprintf("The service refused to create profile %s, so nothing was made: %s.", shown(nickname), err)
		if scopeRefused(err) {
			detail += fmt.Sprintf("\n\nMaking a profile needs the OAuth scope %s: have it granted to the client "+
				"credentials, and if the provider's scopes argument pins the token's scopes, include it there.",
				client.ScopeWriteProfile)
		}
		resp.Diagnostics.AddError(failure("Profile not created", err), detail)
		return
	}
	if diffs := profileDifferences(plan, made, client.ProfileTypeNormal); len(diffs) > 0 {
		resp.Diagnostics.AddError("Profile answered differently from the request",
			fmt.Sprintf("The service answered the create of profile %s with profile %s, which differs from the "+
				"request:\n%s\n\nThe provider does not record an answer it cannot trust, so nothing was recorded. "+
				"If the profile was made, the next plan names it and shows the import block that adopts it.",
				shown(nickname), shown(made.ID), bulletList(diffs)))
		return
	}
	tflog.Info(ctx, "profile created", map[string]any{"id": made.ID})
	r.record(ctx, made, &resp.State, resp.Identity, &resp.Diagnostics)
}

// adoptLost records the profile p found under the nickname of the lost
// create attempt when the evidence shows the attempt made it (judgeLost);
// otherwise it refuses, naming it (sent says what was sent).
func (r *profileResource) adoptLost(ctx context.Context, plan profileModel, attempt lostCreate, recorded bool, p *client.Profile, why, sent string, resp *resource.CreateResponse) {
	found, missing, err := r.judgeLost(ctx, attempt, recorded, p)
	switch {
	case err != nil:
		resp.Diagnostics.AddError(failure("Profiles not read", err),
			fmt.Sprintf("Profile %s has the nickname %s, and %s. Listing the profiles made since that attempt "+
				"started, to check that it made this one, failed: %s.\n\n%s Nothing was recorded: apply again once "+
				"the service answers.", shown(p.ID), shown(p.Nickname), why, err, sent))
	case len(missing) > 0:
		notMadeByAttempt(p, found, missing, sent, &resp.Diagnostics)
	default:
		r.adopt(ctx, plan, p, why+"; "+found.made, resp)
	}
}

// adopt records the profile p that the create found already made, when it
// matches the configuration (why says how it was made).
func (r *profileResource) adopt(ctx context.Context, plan profileModel, p *client.Profile, why string, resp *resource.CreateResponse) {
	if diffs := profileDifferences(plan, p, client.ProfileTypeNormal); len(diffs) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("nickname"), "Profile "+shown(p.ID)+" differs from the configuration",
			fmt.Sprintf("Profile %s has the nickname %s and %s, but it differs from the configuration:\n%s\n\n"+
				"Nothing was sent and nothing was recorded. Import it to manage it:\n\n%s", shown(p.ID),
				shown(p.Nickname), why, bulletList(diffs), profileImportBlock(p.ID)))
		return
	}
	resp.Diagnostics.AddWarning("Profile was created earlier, not created again",
		fmt.Sprintf("Profile %s has the nickname %s: %s. It was not created again; the state now holds %s.",
			shown(p.ID), shown(p.Nickname), why, shown(p.ID)))
	r.record(ctx, p, &resp.State, resp.Identity, &resp.Diagnostics)
}

// profileDifferences lists how the answered profile p differs from the
// plan: its nickname (without letter case, as the service compares it),
// its description when the plan sets one, its id, and its type (wantType:
// NORMAL for a profile made here, the recorded one for an update).
func profileDifferences(plan profileModel, p *client.Profile, wantType string) []string {
	var d []string
	if why := unusableID(p.ID); why != "" {
		d = append(d, "id: answered "+why)
	}
	if want := plan.Nickname.ValueString(); !strings.EqualFold(p.Nickname, want) {
		d = append(d, fmt.Sprintf("nickname: requested %q, answered %q", want, shown(p.Nickname)))
	}
	if want := knownString(plan.Description); want != "" && deref(p.Description) != want {
		d = append(d, fmt.Sprintf("description: requested %q, answered %q", want, shown(deref(p.Description))))
	}
	if p.Type != wantType {
		d = append(d, fmt.Sprintf("type: expected %q, answered %q", wantType, shown(p.Type)))
	}
	return d
}

// recordUnconfirmed records a create whose answer was lost and whose
// profile the lookup did not find: the state holds the arguments and no id
// (Terraform keeps it tainted), and the next apply adopts the profile it
// then finds by the nickname.
func (r *profileResource) recordUnconfirmed(ctx context.Context, plan profileModel, err error, resp *resource.CreateResponse) {
	tflog.Warn(ctx, "profile create not confirmed", map[string]any{"error": err.Error()})
	plan.ID = types.StringNull()
	plan.Type = types.StringNull()
	if plan.Description.IsUnknown() {
		plan.Description = types.StringNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
	resp.Diagnostics.AddError(profileWords.unknown,
		fmt.Sprintf("The create of profile %s was sent, but the service did not confirm it: %s.\n\nIt may or may "+
			"not have made the profile, and the profiles did not show it yet. The state records the attempt: "+
			"applying again looks the nickname up, and records the profile it finds when it matches the "+
			"configuration (nothing is sent again), or creates it.", shown(plan.Nickname.ValueString()), err))
}

// record writes the answered profile p to the state and identity.
func (r *profileResource) record(ctx context.Context, p *client.Profile, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var m profileModel
	m.fromAPI(p)
	diags.Append(state.Set(ctx, m)...)
	setIdentity(ctx, identity, m.ID, diags)
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
	func(p *client.Profile) string {
		if p == nil {
			return ""
		}
		return p.ID
	},
	nil)

func (r *profileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	state, d := getProfile(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
	if state.ID.IsNull() || state.ID.ValueString() == "" {
		// An unconfirmed create (Terraform holds it tainted).
		attempt, recorded := recordedLostCreate(ctx, req.Private)
		r.data.run.attempts.recordLost(profileWords.refNamespace, nicknameKey(state.Nickname.ValueString()), attempt, recorded)
		resp.Diagnostics.AddWarning("Profile not confirmed",
			fmt.Sprintf("The last create of profile %s ended without confirmation from the service. Terraform plans "+
				"to create it again: the apply looks the nickname up first, and records the profile it finds when it "+
				"matches the configuration.", shown(state.Nickname.ValueString())))
		return
	}
	id := state.ID.ValueString()
	importing := state.Nickname.IsNull()
	var p *client.Profile
	var err error
	if importing {
		p, err = r.data.client.GetProfile(ctx, id)
	} else {
		p, err = readGatheredBy(ctx, r.data.run, profileWords.refNamespace, profileLists.byIDs, readProfileByID, id)
	}
	switch {
	case err != nil && importing:
		cannotImport(profileWords, id, err, client.ScopeReadProfile, &resp.Diagnostics)
		return
	case errors.Is(err, client.ErrNotFound):
		tflog.Warn(ctx, "profile not found; removing it from state", map[string]any{"id": id})
		resp.Diagnostics.AddWarning("Profile "+id+" no longer active",
			fmt.Sprintf("The service no longer knows profile %s (%s) as an active profile: it was deactivated "+
				"outside Terraform. It was removed from the Terraform state, and Terraform plans to create it again.",
				id, shown(state.Nickname.ValueString())))
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddError(failure("Reading profile "+id+" failed", err),
			fmt.Sprintf("Reading profile %s failed: %s.\n\nThe state is kept as it was. Check the provider "+
				"configuration and the service's availability, then try again.", id, err))
		return
	}
	if p.ID != id {
		anotherObject(profileWords, id, []string{fmt.Sprintf("id: recorded %q, answered %q", id, shown(p.ID))}, &resp.Diagnostics)
		return
	}
	r.record(ctx, p, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *profileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getProfile(ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	state, d := getProfile(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	nickname := plan.Nickname.ValueString()
	if nickname == state.Nickname.ValueString() {
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
		return
	}
	p, err := r.data.client.UpdateProfile(ctx, id, nickname)
	if err != nil {
		detail := fmt.Sprintf("The service did not rename profile %s (%s) to %s: %s.\n\nThe state keeps the "+
			"nickname before the update.", id, shown(state.Nickname.ValueString()), shown(nickname), err)
		if holder, ok := client.ExistingProfile(err); ok && errors.Is(err, client.ErrConflict) {
			detail += fmt.Sprintf(" Profile %s already has that nickname: choose another one.", shown(holder.ID))
		} else if createOutcomeUnknown(err, client.PathProfiles+"/"+id) {
			detail += " The answer was lost: the next refresh reads the nickname the profile has, and applying " +
				"again sends the same update."
		}
		resp.Diagnostics.AddError(failure("Profile "+id+" not renamed", err), detail)
		return
	}
	diffs := profileDifferences(plan, p, state.Type.ValueString())
	if p.ID != id {
		diffs = append(diffs, fmt.Sprintf("id: requested %q, answered %q", id, shown(p.ID)))
	}
	if len(diffs) > 0 {
		anotherObject(profileWords, id, diffs, &resp.Diagnostics)
		return
	}
	r.record(ctx, p, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *profileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, d := getProfile(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.ID.IsNull() || state.ID.ValueString() == "" {
		// A tainted, unconfirmed create, before its retry.
		if r.data != nil {
			attempt, recorded := recordedLostCreate(ctx, req.Private)
			r.data.run.attempts.recordLost(profileWords.refNamespace, nicknameKey(state.Nickname.ValueString()), attempt, recorded)
		}
		return
	}
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	id := state.ID.ValueString()
	err := r.data.client.DeactivateProfile(ctx, id)
	switch {
	case err == nil:
		tflog.Info(ctx, "profile deactivated", map[string]any{"id": id})
	case errors.Is(err, client.ErrNotFound):
		tflog.Info(ctx, "profile already gone", map[string]any{"id": id})
	default:
		resp.Diagnostics.AddError(failure("Deactivating profile "+id+" failed", err),
			fmt.Sprintf("The service did not deactivate profile %s (%s): %s.\n\nIt stays in the state. The service "+
				"refuses a profile holding a balance above zero (data source platform_profile_balances lists them) "+
				"and the default profile; destroy again once that is settled.", id, shown(state.Nickname.ValueString()), err))
	}
}

func (r *profileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}
