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
		"ref_ids with type":         {RefIDs: []string{"r"}, Types: []string{"CRYPTO_WITHDRAWAL"}},
		"ids with ref_ids":          {IDs: []string{"i"}, RefIDs: []string{"r"}},
		"type with statuses":        {Types: []string{"CRYPTO_WITHDRAWAL"}, Statuses: []string{"FAILED"}},
		"ids with profile_ids":      {IDs: []string{"i"}, ProfileIDs: []string{"p"}},
		"ref_ids with group_ids":    {RefIDs: []string{"r"}, GroupIDs: []string{"g"}},
		"profile_ids with statuses": {ProfileIDs: []string{"p"}, Statuses: []string{"FAILED"}},
	}
	for name, q := range refused {
		if err := q.combinable(); err == nil || !strings.Contains(err.Error(), "created_at and updated_at filters only") {
			t.Errorf("%s: %v, want the reference's rule", name, err)
		}
	}
	orderBy := ListTransfersQuery{OrderBy: "CREATED_AT", UpdatedAt: TimeFilter{GT: time.Now()}}
	if err := orderBy.combinable(); err == nil || !strings.Contains(err.Error(), "order_by") {
		t.Errorf("order_by CREATED_AT with updated_at: %v, want refused", err)
	}
	since := TimeFilter{GTE: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	allowed := map[string]ListTransfersQuery{
		"ref_ids with created_at": {RefIDs: []string{"r"}, CreatedAt: since},
		"type with updated_at":    {Types: []string{"CRYPTO_WITHDRAWAL"}, UpdatedAt: since},
		"groups and statuses":     {GroupIDs: []string{"g"}, Statuses: []string{"FAILED"}},
		"order_by its time":       {OrderBy: "UPDATED_AT", UpdatedAt: since},
		"ids alone":               {IDs: []string{"i"}},
	}
	for name, q := range allowed {
		if err := q.combinable(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
