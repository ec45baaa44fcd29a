package provider

import (
	"context"
	"slices"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// transferLists reads many transfers of the types at once through List
// Transfers (scope transfer:read_transfer), each list read to its end: by
// ref_ids, only transfers of the types count, the first of each ref_id
// as the lookup of one takes it; by ids, as the read by id answers, any
// transfer with the id. The reference allows ref_ids and ids with the
// time filters only, so the types are checked here, not sent. A transfer
// is not read again on refresh once COMPLETED or FAILED: the service
// moves it no further.
func transferLists(types ...string) *objectLists[*client.Transfer] {
	return &objectLists[*client.Transfer]{
		byRefIDs: func(ctx context.Context, c *client.Client, refIDs []string) (map[string]*client.Transfer, error) {
			return transfersBy(ctx, c, client.ListTransfersQuery{RefIDs: refIDs}, refIDs, func(t *client.Transfer) string {
				if !slices.Contains(types, t.Type) {
					return ""
				}
				return deref(t.RefID)
			})
		},
		byIDs: func(ctx context.Context, c *client.Client, ids []string) (map[string]*client.Transfer, error) {
			return transfersBy(ctx, c, client.ListTransfersQuery{IDs: ids}, ids, func(t *client.Transfer) string { return t.ID })
		},
		final: func(status string) bool {
			return status == client.TransferStatusCompleted || status == client.TransferStatusFailed
		},
	}
}

// transfersBy lists the transfers of q to the end and maps each asked key
// to the first transfer whose key it is ("" : not one of the kind). Any
// error, on any page, is the answer: no key is taken for absent from a
// list not read to its end.
func transfersBy(ctx context.Context, c *client.Client, q client.ListTransfersQuery, keys []string, key func(*client.Transfer) string) (map[string]*client.Transfer, error) {
	asked := make(map[string]bool, len(keys))
	for _, k := range keys {
		asked[k] = true
	}
	out := make(map[string]*client.Transfer, len(keys))
	for t, err := range c.Transfers(ctx, q) {
		if err != nil {
			return nil, err
		}
		if t == nil || t.ID == "" {
			continue
		}
		if k := key(t); k != "" && asked[k] {
			if _, dup := out[k]; !dup {
				out[k] = t
			}
		}
	}
	return out, nil
}
