package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Few requests: the plan's lookups of ref_ids and the refresh's reads of
// objects are gathered into list requests (ref_ids, ids: at most
// maxGathered values each) instead of one request per object, without
// making the plan of one object slower. Every type whose list the
// reference gives an ids or ref_ids filter declares its lists (listedBy
// for most), and the core's lookups and reads (or the resource's own
// read, through readGatheredBy) go through the gatherers here:
//
//   - the first key asked of an idle gatherer goes out at once, alone, as
//     the request of one object it always was (the lookup of one ref_id,
//     the read by id), unless a request of the gatherer started
//     less than gatherSpacing ago;
//   - keys asked while a request is in flight, or within gatherSpacing of
//     the start of the last one, wait, and go together in the next
//     request, up to maxGathered at a time, one request after the other;
//   - the next request goes before gatherSpacing has passed when it cannot
//     grow any more: maxGathered keys wait, or as many callers wait as the
//     most this gatherer ever held at once (with Terraform's parallelism
//     of N, no more than N plans are under way, so once they all wait, no
//     other key is coming until they are answered).
//
//   - while requests of many keys follow one another (each starting
//     within twice the spacing of the one before), the spacing doubles
//     from the second of them on, up to maxGatherSpacing: a plan that
//     Terraform walks slowly (many objects on a busy machine) sends as
//     few requests as one walked fast.
//
// So the keys of a plan of many objects, which Terraform asks a few at a
// time as it walks its graph, go in a few requests a second whatever
// their number, each key waiting at most maxGatherSpacing more; a plan of
// one object, or of a few far apart, asks as it did alone.
//
// A key answered by a list is as authoritative as one answered alone,
// because the list is read to its end (every page, following the cursors):
// a list that fails, on any page, fails every key of the request with its
// error, and no key is ever taken for absent from a page that was not the
// last. A ref_id absent from a complete answer is absent, as it is from
// the lookup of one; an id absent from a complete answer is read alone by
// id, whose answer (404, or another object) the refresh policy judges as
// before.
//
// Objects in a final state (a transfer COMPLETED or FAILED) are not read
// again on refresh: the state keeps what the last read recorded. An import
// still reads.

// maxGathered is the most values of one list filter (ids, ref_ids) the
// published reference allows.
const maxGathered = 100

// gatherSpacing is the least time between the starts of two requests of a
// gatherer while keys keep coming: a plan's lookups go in at most four
// requests a second, each of the keys that came meanwhile.
const gatherSpacing = 250 * time.Millisecond

// maxGatherSpacing is the most the spacing grows to while requests of
// many keys follow one another: a plan's reads of many objects go in at
// least one request a second.
const maxGatherSpacing = time.Second

// objectLists is how the core reads many objects of a resource at once (an
// optional field of moneyObjects): byRefIDs looks ref_ids up, byIDs reads
// objects by id, each through one list read to its end. Each answer
// maps a key to its object and holds only objects of the resource.
type objectLists[T any] struct {
	byRefIDs func(ctx context.Context, c *client.Client, refIDs []string) (map[string]T, error)
	byIDs    func(ctx context.Context, c *client.Client, ids []string) (map[string]T, error)
}

// filteredList reads the objects of one list whose filter is ids or ref_ids
// (one of them set), every page, to its end.
type filteredList[T any] func(ctx context.Context, c *client.Client, ids, refIDs []string) iter.Seq2[T, error]

// listedBy is the objectLists of objects whose list takes the ids and
// ref_ids filters the reference documents (at most maxGathered values
// each): by ref_ids, the first object listed under each asked ref_id, as
// the lookup of one takes it; by ids, the object listed with each asked
// id. id and refID read an object's keys ("" for an object without one;
// a nil object, which a list may answer, has none); refID is nil for a list
// that takes ids only, and then only the reads by id are gathered.
func listedBy[E any](list filteredList[*E], id, refID func(*E) string) *objectLists[*E] {
	keyOf := func(key func(*E) string) func(*E) string {
		return func(obj *E) string {
			if obj == nil {
				return ""
			}
			return key(obj)
		}
	}
	l := &objectLists[*E]{
		byIDs: func(ctx context.Context, c *client.Client, ids []string) (map[string]*E, error) {
			return firstByKey(list(ctx, c, ids, nil), ids, keyOf(id))
		},
	}
	if refID != nil {
		l.byRefIDs = func(ctx context.Context, c *client.Client, refIDs []string) (map[string]*E, error) {
			return firstByKey(list(ctx, c, nil, refIDs), refIDs, keyOf(refID))
		}
	}
	return l
}

// firstByKey reads objs to the end and maps each asked key to the first
// object whose key it is. Any error, on any page, is the answer: no key is
// taken for absent from a list not read to its end.
func firstByKey[T any](objs iter.Seq2[T, error], keys []string, key func(T) string) (map[string]T, error) {
	asked := make(map[string]bool, len(keys))
	for _, k := range keys {
		asked[k] = true
	}
	out := make(map[string]T, len(keys))
	for obj, err := range objs {
		if err != nil {
			return nil, err
		}
		if k := key(obj); k != "" && asked[k] {
			if _, dup := out[k]; !dup {
				out[k] = obj
			}
		}
	}
	return out, nil
}

// listedByRefID finds in objs the object made with refID: only an object
// with that ref_id counts, whatever the list's filtering.
func listedByRefID[T any](objs iter.Seq2[T, error], refID string, refIDOf func(T) string) (T, bool, error) {
	var none T
	for obj, err := range objs {
		if err != nil {
			return none, false, err
		}
		if refIDOf(obj) == refID {
			return obj, true, nil
		}
	}
	return none, false, nil
}

// listedByID reads the object id, a noun, from objs, a list filtered by
// ids: client.ErrNotFound when it lists none, errAnotherObject when it
// lists another object (the filter not applied).
func listedByID[T any](objs iter.Seq2[T, error], id, noun string, idOf func(T) string) (T, error) {
	var none, other T
	listed := false
	for obj, err := range objs {
		if err != nil {
			return none, err
		}
		if idOf(obj) == id {
			return obj, nil
		}
		if !listed {
			other, listed = obj, true
		}
	}
	if listed {
		return none, errAnotherObject{idOf(other)}
	}
	return none, fmt.Errorf("no %s with id %s is listed: %w", noun, id, client.ErrNotFound)
}

// gathered is what a gatherer answers for one key.
type gathered[V any] struct {
	val   V
	found bool
	// servedAt is the Date of the answer that carried it.
	servedAt time.Time
}

// gatherer coalesces the keys asked of it into requests of at most max
// keys, one request in flight at a time, spaced by spacing while keys keep
// coming (see the top of this file). Safe for concurrent use.
type gatherer[V any] struct {
	max int
	// spacing is the least time between the starts of two requests while
	// keys keep coming (0: none, each request goes as soon as the one
	// before it is answered).
	spacing time.Duration
	// now and after are the clock the spacing is read from and waited on
	// (nil: the machine's).
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
	// one reads a single key, the way it was read alone; many reads
	// several keys with one list read to its end. Both answer found
	// keys only.
	one  func(ctx context.Context, key string) (V, bool, error)
	many func(ctx context.Context, keys []string) (map[string]V, error)

	mu      sync.Mutex
	busy    bool
	pending []*gatherWaiter[V]
	// inFlight is the number of callers of the request in flight; peak
	// the most callers ever held at once, in flight and waiting.
	inFlight, peak int
	// started is when the last request started.
	started time.Time
	// bursts is the number of requests of many keys in a row, each
	// started within twice the spacing of the one before.
	bursts int
	// wake tells a drain waiting out the spacing that the next request
	// cannot grow any more.
	wake chan struct{}
}

// gatherWaiter is one caller waiting for its key.
type gatherWaiter[V any] struct {
	ctx  context.Context
	key  string
	done chan struct{}
	res  gathered[V]
	err  error
}

// get answers key: alone, at once, when the gatherer is idle; otherwise
// with the keys that wait beside it, in the next request.
func (g *gatherer[V]) get(ctx context.Context, key string) (gathered[V], error) {
	w := &gatherWaiter[V]{ctx: ctx, key: key, done: make(chan struct{})}
	g.mu.Lock()
	g.pending = append(g.pending, w)
	g.peak = max(g.peak, len(g.pending)+g.inFlight)
	switch {
	case !g.busy:
		g.busy = true
		if g.wake == nil {
			g.wake = make(chan struct{}, 1)
		}
		go g.drain()
	case g.full():
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
	g.mu.Unlock()
	select {
	case <-w.done:
		return w.res, w.err
	case <-ctx.Done():
		return gathered[V]{}, ctx.Err()
	}
}

// full reports whether the next request cannot grow any more: max keys
// wait, or as many callers as the gatherer ever held at once. Callers
// hold mu.
func (g *gatherer[V]) full() bool {
	return len(g.pending) >= g.max || (g.inFlight == 0 && len(g.pending) >= g.peak)
}

// drain sends the waiting keys, at most max a request, each request
// starting at least spacing after the one before unless it cannot grow,
// until none waits.
func (g *gatherer[V]) drain() {
	for {
		g.mu.Lock()
		if len(g.pending) == 0 {
			g.busy = false
			g.mu.Unlock()
			return
		}
		spacing := g.spacingNow()
		now := g.clockNow()
		if wait := g.started.Add(spacing).Sub(now); wait > 0 && !g.full() {
			g.mu.Unlock()
			select {
			case <-g.clockAfter(wait):
			case <-g.wake:
			}
			continue
		}
		batch := g.take()
		if now.Sub(g.started) > 2*spacing {
			// Quiet since the last request: a new burst.
			g.bursts = 0
		}
		if distinctKeys(batch) > 1 {
			g.bursts++
		}
		g.inFlight = len(batch)
		g.started = now
		g.mu.Unlock()
		g.send(batch)
		// The callers are no longer in flight before they hear their
		// answer: one that asks again at once is alone, not a second
		// caller at once.
		g.mu.Lock()
		g.inFlight = 0
		g.mu.Unlock()
		for _, w := range batch {
			close(w.done)
		}
	}
}

// spacingNow is the least time between the starts of two requests now:
// the spacing, doubled for each request of many keys in a row after the
// first, up to maxGatherSpacing (never below the spacing). Callers hold mu.
func (g *gatherer[V]) spacingNow() time.Duration {
	d := g.spacing
	if d <= 0 {
		return 0
	}
	for range g.bursts - 1 {
		if d >= maxGatherSpacing {
			break
		}
		d = min(2*d, maxGatherSpacing)
	}
	return max(d, g.spacing)
}

// distinctKeys is the number of keys the waiters of batch ask.
func distinctKeys[V any](batch []*gatherWaiter[V]) int {
	keys := make(map[string]bool, len(batch))
	for _, w := range batch {
		keys[w.key] = true
	}
	return len(keys)
}

// clockNow and clockAfter read the gatherer's clock.
func (g *gatherer[V]) clockNow() time.Time {
	if g.now != nil {
		return g.now()
	}
	return time.Now()
}

func (g *gatherer[V]) clockAfter(d time.Duration) <-chan time.Time {
	if g.after != nil {
		return g.after(d)
	}
	return time.After(d)
}

// take removes from pending the waiters of the next request: those of the
// first max distinct keys. Callers hold mu.
func (g *gatherer[V]) take() []*gatherWaiter[V] {
	keys := map[string]bool{}
	var batch, rest []*gatherWaiter[V]
	for _, w := range g.pending {
		if w.ctx.Err() != nil {
			// Gone before its request: nothing is asked for it.
			w.err = w.ctx.Err()
			close(w.done)
			continue
		}
		if !keys[w.key] && len(keys) >= g.max {
			rest = append(rest, w)
			continue
		}
		keys[w.key] = true
		batch = append(batch, w)
	}
	g.pending = rest
	return batch
}

// send makes the request of batch and records the answer of each of its
// waiters (drain tells them). The
// request runs with the values of the first waiter's context (its logger,
// its deadline aside) and ends early only when every waiter is gone.
func (g *gatherer[V]) send(batch []*gatherWaiter[V]) {
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(batch[0].ctx))
	defer cancel()
	var mu sync.Mutex
	alive := len(batch)
	for _, w := range batch {
		stop := context.AfterFunc(w.ctx, func() {
			mu.Lock()
			defer mu.Unlock()
			if alive--; alive == 0 {
				cancel()
			}
		})
		defer stop()
	}
	var keys []string
	seen := map[string]bool{}
	for _, w := range batch {
		if !seen[w.key] {
			seen[w.key] = true
			keys = append(keys, w.key)
		}
	}
	sctx, served := client.WithServedAt(ctx)
	answers := map[string]V{}
	var err error
	if len(keys) == 1 {
		var v V
		var ok bool
		if v, ok, err = g.one(sctx, keys[0]); ok && err == nil {
			answers[keys[0]] = v
		}
	} else {
		answers, err = g.many(sctx, keys)
	}
	at := served.Last()
	for _, w := range batch {
		if err != nil {
			w.err = err
		} else {
			v, ok := answers[w.key]
			w.res = gathered[V]{val: v, found: ok, servedAt: at}
		}
	}
}

// gathererOf is the gatherer of name in the lookups of run, made by mk
// the first time.
func gathererOf[V any](run *moneyRun, name string, mk func() *gatherer[V]) *gatherer[V] {
	l := &run.lookups
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gatherers == nil {
		l.gatherers = map[string]any{}
	}
	if g, ok := l.gatherers[name].(*gatherer[V]); ok {
		return g
	}
	g := mk()
	l.gatherers[name] = g
	return g
}

// lookupGathered looks refID up with k: gathered with the other lookups of
// k when it has lists, otherwise alone with k.lookup. servedAt is
// the Date of the answer.
func lookupGathered[T any](ctx context.Context, run *moneyRun, k moneyObjects[T], refID string) (obj T, found bool, servedAt time.Time, err error) {
	if k.lists == nil || k.lists.byRefIDs == nil {
		lctx, served := client.WithServedAt(ctx)
		obj, found, err = k.lookup(lctx, run.client, refID)
		return obj, found, served.Last(), err
	}
	c := run.client
	g := gathererOf(run, "ref_ids\x00"+k.words.refNamespace, func() *gatherer[T] {
		return &gatherer[T]{
			max:     maxGathered,
			spacing: gatherSpacing,
			one:     func(ctx context.Context, refID string) (T, bool, error) { return k.lookup(ctx, c, refID) },
			many: func(ctx context.Context, refIDs []string) (map[string]T, error) {
				return k.lists.byRefIDs(ctx, c, refIDs)
			},
		}
	})
	res, err := g.get(ctx, refID)
	return res.val, res.found, res.servedAt, err
}

// readGathered reads the object id for a refresh with k.get: gathered with
// the other reads of k when it has lists; an id the list does not
// answer is read alone with k.get, whose answer the refresh judges.
func readGathered[T any](ctx context.Context, run *moneyRun, k moneyObjects[T], id string) (T, error) {
	var byIDs func(ctx context.Context, c *client.Client, ids []string) (map[string]T, error)
	if k.lists != nil {
		byIDs = k.lists.byIDs
	}
	return readGatheredBy(ctx, run, k.words.refNamespace, byIDs, k.get, id)
}

// readGatheredBy reads the object id for a refresh with get: gathered with
// the other reads of the objects name into list requests of byIDs when
// there is one; an id the list does not answer is read alone with get,
// whose answer the refresh judges.
func readGatheredBy[T any](ctx context.Context, run *moneyRun, name string,
	byIDs func(ctx context.Context, c *client.Client, ids []string) (map[string]T, error),
	get func(ctx context.Context, c *client.Client, id string) (T, error), id string,
) (T, error) {
	c := run.client
	if byIDs == nil {
		return get(ctx, c, id)
	}
	g := gathererOf(run, "ids\x00"+name, func() *gatherer[T] {
		// noList is set once the service answers that it has no list at
		// this address: the reads go by id, each alone, from then on.
		var noList atomic.Bool
		return &gatherer[T]{
			max:     maxGathered,
			spacing: gatherSpacing,
			one: func(ctx context.Context, id string) (T, bool, error) {
				// Alone, the read by id: its error (404 among them) is
				// the caller's to judge.
				obj, err := get(ctx, c, id)
				return obj, err == nil, err
			},
			many: func(ctx context.Context, ids []string) (map[string]T, error) {
				if noList.Load() {
					return nil, errNoList
				}
				m, err := byIDs(ctx, c, ids)
				if client.IsNoSuchOperation(err) {
					noList.Store(true)
					return nil, errNoList
				}
				return m, err
			},
		}
	})
	res, err := g.get(ctx, id)
	if errors.Is(err, errNoList) || (err == nil && !res.found) {
		return get(ctx, c, id)
	}
	return res.val, err
}

// errNoList says that the service has no list of these objects at
// this address: each is read alone by id, as before lists.
var errNoList = errors.New("the service has no list of these objects")

// finalNotRead reports whether the refresh keeps the object whose state
// recorded reads without reading it: k declares what it records final.
func finalNotRead[T any](k moneyObjects[T], recorded func(name string) string) bool {
	return k.final != nil && k.final(recorded)
}
