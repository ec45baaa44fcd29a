package client

import (
	"strings"
	"testing"
	"time"
)

// ids, ref_ids and type each combine with the time filters only, as the
// reference says: any other combination is refused before a request.
func TestListTransfersFiltersThatStandAlone(t *testing.T) {
	refused := map[string]ListTransfersQuery{
		"ref_ids with type":      {RefIDs: []string{"r"}, Types: []string{"CRYPTO_WITHDRAWAL"}},
		"ids with ref_ids":       {IDs: []string{"i"}, RefIDs: []string{"r"}},
		"type with statuses":     {Types: []string{"CRYPTO_WITHDRAWAL"}, Statuses: []string{"FAILED"}},
		"ids with profile_ids":   {IDs: []string{"i"}, ProfileIDs: []string{"p"}},
		"ref_ids with group_ids": {RefIDs: []string{"r"}, GroupIDs: []string{"g"}},
	}
	for name, q := range refused {
		if err := q.combinable(); err == nil || !strings.Contains(err.Error(), "created_at and updated_at filters only") {
			t.Errorf("%s: %v, want the reference's rule", name, err)
		}
	}
	since := TimeFilter{GTE: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	allowed := map[string]ListTransfersQuery{
		"ref_ids with created_at": {RefIDs: []string{"r"}, CreatedAt: since},
		"type with updated_at":    {Types: []string{"CRYPTO_WITHDRAWAL"}, UpdatedAt: since},
		"profiles and statuses":   {ProfileIDs: []string{"p"}, Statuses: []string{"FAILED"}},
		"ids alone":               {IDs: []string{"i"}},
	}
	for name, q := range allowed {
		if err := q.combinable(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
