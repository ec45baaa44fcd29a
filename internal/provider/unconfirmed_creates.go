package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
)

// Creates whose outcome is unknown.
//
// When a create POST ends without a confirmed answer (a timeout, or a 5xx
// after the client's retries), the service may or may not have processed
// it. The resource then saves what it sent (its ref_id, no id) and fails;
// Terraform marks that object tainted and plans its replacement on the next
// run. Terraform plans a tainted object as if it were new: PlanResourceChange
// receives a null prior state and no private state, so ModifyPlan cannot
// read the ref_id from it, and a ref_id generated anew at plan time would
// not survive the re-plan Terraform makes during apply (that is reported as
// "Provider produced inconsistent final plan").
//
// The tainted object is, however, passed to Read (refresh, during the
// plan) and to Delete (the first half of the replacement, during the
// apply), and both run in the same provider process as the ModifyPlan that
// follows them. They record its ref_id here, under a digest of the request
// it was sent with; ModifyPlan of a new object whose ref_id is not
// configured looks up the digest of its own request and, when found, plans
// that ref_id again. The retry is then the same request with the same
// ref_id, which the service's replay protection never processes twice.
// When the arguments changed in between, the digests differ and a new
// ref_id is generated: that is a different withdrawal.

// unconfirmedCreates maps request digests to the ref_ids of creates whose
// outcome is unknown. The zero value is ready to use, a nil one remembers
// nothing; safe for concurrent use.
type unconfirmedCreates struct {
	mu     sync.Mutex
	refIDs map[string]string
}

// remember records refID for the request digest key.
func (u *unconfirmedCreates) remember(key, refID string) {
	if u == nil || key == "" || refID == "" {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.refIDs == nil {
		u.refIDs = map[string]string{}
	}
	u.refIDs[key] = refID
}

// lookup returns the ref_id recorded for key.
func (u *unconfirmedCreates) lookup(key string) (string, bool) {
	if u == nil {
		return "", false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	id, ok := u.refIDs[key]
	return id, ok
}

// requestDigest is a digest of kind and the canonical JSON of req (object
// keys sorted, JSON values normalised). The caller clears the ref_id of req
// first. It is "" when req cannot be encoded.
func requestDigest(kind string, req any) string {
	b, err := json.Marshal(req)
	if err != nil {
		return ""
	}
	var generic any
	if err := json.Unmarshal(b, &generic); err != nil {
		return ""
	}
	b, err = json.Marshal(generic)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(append([]byte(kind+"\x00"), b...))
	return hex.EncodeToString(sum[:])
}
