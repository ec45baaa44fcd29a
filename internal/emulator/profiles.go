package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Profiles, as the reference publishes them: List, Create, Get, Update and
// Deactivate Profile (GET and POST /profiles, GET and PUT
// /profiles/{profile_id}, PUT /profiles/{profile_id}/deactivate). The
// balances of a profile are in balances.go; they answer for any profile
// id, as before profiles were served.

// listProfiles tells the profile list apart inside a cursor.
const listProfiles listKind = 21

// Profile types, as published.
const (
	ProfileTypeNormal  = "NORMAL"
	ProfileTypeDefault = "DEFAULT"
)

// Profile is a profile as the reference publishes it.
type Profile struct {
	ID          string  `json:"id"`
	Nickname    string  `json:"nickname"`
	Type        string  `json:"type"`
	Description *string `json:"description,omitempty"`
}

// profileRecord is a profile the emulator holds: its answer (the JSON of
// the record is that of the profile), when it was made and whether it is
// deactivated.
type profileRecord struct {
	Profile
	createdAt   time.Time
	deactivated bool
}

// CreateProfileRequest is the body of POST /profiles.
type CreateProfileRequest struct {
	Nickname    string  `json:"nickname"`
	Description *string `json:"description,omitempty"`
}

// UpdateProfileRequest is the body of PUT /profiles/{profile_id}.
type UpdateProfileRequest struct {
	Nickname string `json:"nickname"`
}

// defaultProfileCreated dates the default profile.
var defaultProfileCreated = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// seedProfiles makes the default profile, nickname "default", the only one
// the emulator starts with.
func (st *store) seedProfiles() {
	st.profileByID = map[string]*profileRecord{}
	st.addProfile(&profileRecord{
		Profile:   Profile{ID: derivedUUID(st.seed, "profile", "default"), Nickname: "default", Type: ProfileTypeDefault},
		createdAt: defaultProfileCreated,
	})
}

func (st *store) addProfile(p *profileRecord) {
	st.profiles = append(st.profiles, p)
	st.profileByID[p.ID] = p
}

// nicknameHolder is the active profile other than self whose nickname is
// nickname, compared without letter case (as the list's filter compares),
// under the store's lock.
func (st *store) nicknameHolder(nickname, self string) *profileRecord {
	for _, p := range st.profiles {
		if !p.deactivated && p.ID != self && strings.EqualFold(p.Nickname, nickname) {
			return p
		}
	}
	return nil
}

// profile is the profile id ("default" names the default one), under the
// store's lock; a deactivated one only when deactivated is true.
func (st *store) profile(id string, deactivated bool) *profileRecord {
	if id == "default" {
		return st.profiles[0]
	}
	p := st.profileByID[id]
	if p == nil || (p.deactivated && !deactivated) {
		return nil
	}
	return p
}

func profileNotFound(id string) *apiError {
	return errNotFound("profile not found with id '" + id + "'")
}

// nicknameTaken is the refusal of a nickname another active profile has:
// 409 with the already-exists problem and that profile in meta.existing.
func nicknameTaken(holder *profileRecord) *Problem {
	return &Problem{
		Type: problemTypeBase + "already-exists", Title: "Already Exists", Status: http.StatusConflict,
		Detail: fmt.Sprintf("profile already exists with nickname '%s'", holder.Nickname),
		Meta:   map[string]any{"existing": holder.Profile},
	}
}

func validNickname(n string) *apiError {
	if strings.TrimSpace(n) == "" {
		return errInvalid("nickname", "must not be empty")
	}
	return nil
}

func (s *Server) handleListProfiles(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	q.defaultLimit = maxPageLimit
	created := parseCreatedAt(q)
	desc := q.enum("order", []string{"DESC", "ASC"}) == "DESC"
	q.enum("order_by", []string{"CREATED_AT"})
	nickname, byNickname := q.single("nickname", true)
	ids := set(q.list("ids", nil))
	serveLockedPage(w, s.data, q, listProfiles, "items", func(st *store) []*profileRecord { return st.profiles }, desc, func(p *profileRecord) bool {
		return !p.deactivated &&
			(ids == nil || ids[p.ID]) &&
			(!byNickname || strings.HasPrefix(strings.ToLower(p.Nickname), strings.ToLower(nickname))) &&
			created.match(p.createdAt)
	})
}

func (s *Server) handleCreateProfile(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, func(req *CreateProfileRequest) *apiError { return validNickname(req.Nickname) })
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	if holder := st.nicknameHolder(req.Nickname, ""); holder != nil {
		p := nicknameTaken(holder)
		st.mu.Unlock()
		if s.acceptFaults(w, r) {
			writeProblem(w, p)
		}
		return
	}
	p := &profileRecord{
		Profile:   Profile{ID: st.created.uuid(), Nickname: req.Nickname, Type: ProfileTypeNormal, Description: req.Description},
		createdAt: s.now(),
	}
	st.addProfile(p)
	answer := p.Profile
	st.mu.Unlock()
	s.answerPost(w, r, answer)
}

func (s *Server) handleGetProfile(w http.ResponseWriter, r *http.Request, id string) {
	q := newQuery(r)
	deactivated := q.boolean("include_deactivated")
	if e := q.finish(); e != nil {
		writeError(w, e)
		return
	}
	st := s.data
	st.mu.Lock()
	p := st.profile(id, deactivated)
	var answer Profile
	if p != nil {
		answer = p.Profile
	}
	st.mu.Unlock()
	if p == nil {
		writeError(w, profileNotFound(id))
		return
	}
	writeJSON(w, http.StatusOK, answer)
}

func (s *Server) handleUpdateProfile(w http.ResponseWriter, r *http.Request, id string) {
	req, ok := decodeValid(w, r, func(req *UpdateProfileRequest) *apiError { return validNickname(req.Nickname) })
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	p := st.profile(id, false)
	if p == nil {
		st.mu.Unlock()
		writeError(w, profileNotFound(id))
		return
	}
	if holder := st.nicknameHolder(req.Nickname, p.ID); holder != nil {
		prob := nicknameTaken(holder)
		st.mu.Unlock()
		writeProblem(w, prob)
		return
	}
	p.Nickname = req.Nickname
	answer := p.Profile
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, answer)
}

// handleDeactivateProfile deactivates a profile whose balances are all
// zero (or unset). The default profile is refused with 400, a profile
// holding a balance above zero with 409 (the failed-precondition problem
// naming each balance, listed in meta.balances); an unknown id is a 404.
// A profile already deactivated answers 200 again: deactivating twice
// deactivates once.
func (s *Server) handleDeactivateProfile(w http.ResponseWriter, _ *http.Request, id string) {
	st := s.data
	st.mu.Lock()
	p := st.profile(id, true)
	if p == nil {
		st.mu.Unlock()
		writeError(w, profileNotFound(id))
		return
	}
	if p.Type == ProfileTypeDefault {
		st.mu.Unlock()
		writeError(w, errInvalid("profile_id", "the default profile cannot be deactivated"))
		return
	}
	var held []Balance
	for k, v := range st.balances {
		if k.profile == p.ID && v.IsPositive() {
			held = append(held, Balance{ProfileID: p.ID, Asset: k.asset, Available: v.String()})
		}
	}
	if len(held) > 0 {
		st.mu.Unlock()
		slices.SortFunc(held, func(a, b Balance) int { return strings.Compare(a.Asset, b.Asset) })
		words := make([]string, len(held))
		items := make([]map[string]string, len(held))
		for i, b := range held {
			words[i] = b.Available + " " + b.Asset
			items[i] = map[string]string{"asset": b.Asset, "available": b.Available}
		}
		writeProblem(w, &Problem{
			Type: problemTypeBase + "failed-precondition", Title: http.StatusText(http.StatusConflict), Status: http.StatusConflict,
			Detail: fmt.Sprintf("profile %s holds a balance above zero (%s): profiles with more than zero balances "+
				"cannot be deactivated", p.ID, strings.Join(words, ", ")),
			Meta: map[string]any{"balances": items},
		})
		return
	}
	p.deactivated = true
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, struct{}{})
}

// reactivateIfFunded reactivates a deactivated profile that a credit gave
// a balance above zero, as the reference says, under the store's lock.
func (st *store) reactivateIfFunded(profile string) {
	if p := st.profileByID[profile]; p != nil && p.deactivated {
		for k, v := range st.balances {
			if k.profile == profile && v.IsPositive() {
				p.deactivated = false
				return
			}
		}
	}
}

// Profiles returns every profile, the default one first and then those
// made through the API in creation order, deactivated ones included.
func (s *Server) Profiles() []Profile {
	return lockedCopies(s.data, func(st *store) []*profileRecord { return st.profiles },
		func(p *profileRecord) Profile { return p.Profile })
}

// ProfileDeactivated reports whether the profile id is deactivated.
func (s *Server) ProfileDeactivated(id string) bool {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	p := st.profileByID[id]
	return p != nil && p.deactivated
}

// DefaultProfileID is the id of the default profile.
func (s *Server) DefaultProfileID() string {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.profiles[0].ID
}
