package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// recordingGatherer is a gatherer whose requests are recorded: one answers
// its key, many answers every key, each as "v:" + key.
type recordingGatherer struct {
	g       *gatherer[string]
	mu      sync.Mutex
	singles []string
	lists   [][]string
	// hold, when set, holds each request until it is closed; started
	// receives the key of each request of one as it starts.
	hold    chan struct{}
	started chan string
	fail    error
}

func newRecordingGatherer() *recordingGatherer {
	r := &recordingGatherer{}
	r.g = &gatherer[string]{
		max: maxGathered,
		one: func(_ context.Context, key string) (string, bool, error) {
			r.mu.Lock()
			r.singles = append(r.singles, key)
			r.mu.Unlock()
			if r.started != nil {
				r.started <- key
			}
			if r.hold != nil {
				<-r.hold
			}
			return "v:" + key, true, r.fail
		},
		many: func(_ context.Context, keys []string) (map[string]string, error) {
			r.mu.Lock()
			r.lists = append(r.lists, slices.Clone(keys))
			r.mu.Unlock()
			if r.fail != nil {
				return nil, r.fail
			}
			out := map[string]string{}
			for _, k := range keys {
				if !strings.HasPrefix(k, "absent") {
					out[k] = "v:" + k
				}
			}
			return out, nil
		},
	}
	return r
}

// pending is the number of waiters queued for the next request.
func (r *recordingGatherer) pending() int {
	r.g.mu.Lock()
	defer r.g.mu.Unlock()
	return len(r.g.pending)
}

// waitPending yields until n waiters are queued (no sleep: the waiters
// are goroutines of this test, already started).
func (r *recordingGatherer) waitPending(t *testing.T, n int) {
	t.Helper()
	for r.pending() < n {
		if t.Context().Err() != nil {
			t.Fatal("waiters never queued")
		}
		runtime.Gosched()
	}
}

// newBusyGatherer is a recording gatherer with the request of "first"
// started and held until r.hold is closed; done receives its error and
// has room for three more.
func newBusyGatherer(t *testing.T) (r *recordingGatherer, done chan error) {
	r = newRecordingGatherer()
	r.hold = make(chan struct{})
	r.started = make(chan string, 1)
	done = make(chan error, 4)
	go func() { _, err := r.g.get(t.Context(), "first"); done <- err }()
	<-r.started
	r.started = nil
	return r, done
}

// The first key of an idle gatherer goes out at once, alone, as the
// request of one object: nothing waits for company.
func TestGathererOneKeyGoesAloneAtOnce(t *testing.T) {
	r := newRecordingGatherer()
	res, err := r.g.get(t.Context(), "ref-1")
	if err != nil || !res.found || res.val != "v:ref-1" {
		t.Fatalf("get = %+v, %v", res, err)
	}
	if !slices.Equal(r.singles, []string{"ref-1"}) || len(r.lists) != 0 {
		t.Errorf("requests: alone %v, lists %v; want ref-1 alone", r.singles, r.lists)
	}
	// Idle again: the next one goes alone too.
	if _, err := r.g.get(t.Context(), "ref-2"); err != nil {
		t.Fatal(err)
	}
	if len(r.singles) != 2 || len(r.lists) != 0 {
		t.Errorf("requests: alone %v, lists %v; want two alone", r.singles, r.lists)
	}
}

// 250 keys asked while a request is in flight go together in three list
// requests of 100, 100 and 50, one after the other; each caller gets its
// own answer, and a key the complete answer lacks is absent.
func TestGatherer250KeysTakeThreeRequests(t *testing.T) {
	r, first := newBusyGatherer(t)
	type answer struct {
		key string
		res gathered[string]
		err error
	}
	answers := make(chan answer, 250)
	for i := range 250 {
		key := fmt.Sprintf("ref-%03d", i)
		if i == 7 {
			key = "absent-7"
		}
		go func() {
			res, err := r.g.get(t.Context(), key)
			answers <- answer{key, res, err}
		}()
	}
	r.waitPending(t, 250)
	close(r.hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for range 250 {
		a := <-answers
		switch {
		case a.err != nil:
			t.Errorf("%s: %v", a.key, a.err)
		case a.key == "absent-7" && a.res.found:
			t.Errorf("%s found: %+v", a.key, a.res)
		case a.key != "absent-7" && (!a.res.found || a.res.val != "v:"+a.key):
			t.Errorf("%s answered %+v", a.key, a.res)
		}
	}
	var sizes []int
	seen := map[string]bool{}
	for _, l := range r.lists {
		sizes = append(sizes, len(l))
		for _, k := range l {
			if seen[k] {
				t.Errorf("%s asked twice", k)
			}
			seen[k] = true
		}
	}
	if len(r.singles) != 1 || !slices.Equal(sizes, []int{100, 100, 50}) {
		t.Errorf("requests: %d alone, lists of %v; want 1 alone, then lists of 100, 100 and 50", len(r.singles), sizes)
	}
}

// Callers asking the same key while a request is in flight share one
// place in the next request.
func TestGathererSameKeyAskedOnce(t *testing.T) {
	r, done := newBusyGatherer(t)
	for _, k := range []string{"a", "b", "a"} {
		go func() {
			res, err := r.g.get(t.Context(), k)
			if err == nil && res.val != "v:"+k {
				err = fmt.Errorf("%s answered %q", k, res.val)
			}
			done <- err
		}()
	}
	r.waitPending(t, 3)
	close(r.hold)
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if len(r.lists) != 1 || !slices.Equal(slices.Sorted(slices.Values(r.lists[0])), []string{"a", "b"}) {
		t.Errorf("lists %v, want one of a and b", r.lists)
	}
}

// A failed list fails each of its waiters with its error: none of them is
// taken for absent.
func TestGathererFailedListFailsEachWaiter(t *testing.T) {
	r, done := newBusyGatherer(t)
	boom := errors.New("GET /transfer/transfers: 503 Service Unavailable")
	errs := make(chan error, 10)
	for i := range 10 {
		go func() {
			res, err := r.g.get(t.Context(), fmt.Sprintf("ref-%d", i))
			if err == nil {
				err = fmt.Errorf("ref-%d answered %+v without an error", i, res)
			}
			errs <- err
		}()
	}
	r.waitPending(t, 10)
	r.fail = boom
	close(r.hold)
	if err := <-done; !errors.Is(err, boom) {
		t.Errorf("the request in flight failed with %v, want %v", err, boom)
	}
	for range 10 {
		if err := <-errs; !errors.Is(err, boom) {
			t.Errorf("waiter failed with %v, want %v", err, boom)
		}
	}
	// The failure is not remembered: the next key is asked again.
	r.fail, r.hold = nil, nil
	if res, err := r.g.get(t.Context(), "ref-1"); err != nil || !res.found {
		t.Errorf("after the failure: %+v, %v", res, err)
	}
}

// A waiter whose context ends returns at once; the others of its request
// get their answers.
func TestGathererCancelledWaiter(t *testing.T) {
	r, done := newBusyGatherer(t)
	ctx, cancel := context.WithCancel(t.Context())
	gone := make(chan error, 1)
	go func() { _, err := r.g.get(ctx, "gone"); gone <- err }()
	stays := make(chan error, 1)
	go func() { _, err := r.g.get(t.Context(), "stays"); stays <- err }()
	r.waitPending(t, 2)
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled waiter: %v", err)
	}
	close(r.hold)
	if err := <-stays; err != nil {
		t.Errorf("other waiter: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("the first waiter: %v", err)
	}
	for _, l := range r.lists {
		if slices.Contains(l, "gone") {
			t.Errorf("the cancelled key was asked: %v", l)
		}
	}
}

// pagedListClient is a client of an emulator whose list at path answers
// pages of 2 items, counted in pages; once failPage2 is set, every page
// after the first answers 403.
func pagedListClient(t *testing.T, path string) (c *client.Client, failPage2 *atomic.Bool, pages *atomic.Int32) {
	t.Helper()
	failPage2, pages = new(atomic.Bool), new(atomic.Int32)
	f := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodGet && r.URL.Path == "/v2"+path {
			q := r.URL.Query()
			q.Set("limit", "2")
			r.URL.RawQuery = q.Encode()
			pages.Add(1)
			if failPage2.Load() && q.Get("page_cursor") != "" {
				http.Error(w, `{"code":"forbidden","message":"no"}`, http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
	return frontedClient(t, f), failPage2, pages
}

// frontedClient is a client of the fronted emulator f.
func frontedClient(t *testing.T, f *frontedEmulator) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{RateStateDir: t.TempDir(),
		ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
		BaseURL: f.srv.URL + "/v2", AuthURL: f.srv.URL, Rates: &testRates,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The transfers' lists read a paged answer to its end: a ref_id on the
// last page is found; a page that fails fails the whole lookup instead of
// taking what the pages before it lacked for absent.
func TestTransferListsFollowPages(t *testing.T) {
	c, failPage2, pages := pagedListClient(t, client.PathTransfers)
	var refIDs, ids []string
	for i := range 5 {
		ref := fmt.Sprintf("paged-%d", i)
		tr, err := c.CreateCryptoWithdrawal(t.Context(), client.CryptoWithdrawalRequest{
			ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1", RefID: ref,
		})
		if err != nil {
			t.Fatal(err)
		}
		refIDs, ids = append(refIDs, ref), append(ids, tr.ID)
	}
	l := transferLists(client.TransferTypeCryptoWithdr)
	asked := append(slices.Clone(refIDs), "never-made")
	got, err := l.byRefIDs(t.Context(), c, asked)
	if err != nil {
		t.Fatal(err)
	}
	if n := pages.Load(); n != 3 {
		t.Errorf("%d pages read, want 3 (5 transfers, 2 a page)", n)
	}
	for i, ref := range refIDs {
		if tr := got[ref]; tr == nil || tr.ID != ids[i] {
			t.Errorf("ref_id %s: %+v, want transfer %s", ref, tr, ids[i])
		}
	}
	if _, ok := got["never-made"]; ok || len(got) != 5 {
		t.Errorf("answer %v", got)
	}
	byID, err := l.byIDs(t.Context(), c, ids)
	if err != nil || len(byID) != 5 {
		t.Errorf("by ids: %d of 5, %v", len(byID), err)
	}
	// Another type under a ref_id is not one of these objects.
	if other, err := transferLists(client.TransferTypeWireWithdrawal).byRefIDs(t.Context(), c, refIDs); err != nil || len(other) != 0 {
		t.Errorf("wire withdrawals under the ref_ids: %v, %v", other, err)
	}

	failPage2.Store(true)
	got, err = l.byRefIDs(t.Context(), c, asked)
	if err == nil || got != nil {
		t.Errorf("a failed second page answered %v, %v; want the error", got, err)
	}
}

// A transfer COMPLETED or FAILED is final: its refresh does not read it.
func TestTransferListsFinal(t *testing.T) {
	k := transfersOf(withdrawalWords, client.TransferTypeCryptoWithdr)
	for status, want := range map[string]bool{"COMPLETED": true, "FAILED": true, "PENDING": false, "": false} {
		if got := finalNotRead(k, recordedOf(map[string]string{"status": status})); got != want {
			t.Errorf("finalNotRead(%q) = %v, want %v", status, got, want)
		}
	}
}

// recordedOf reads the attributes of a state from m ("" when absent).
func recordedOf(m map[string]string) func(string) string {
	return func(name string) string { return m[name] }
}

// What each money object records when the service moves it no further:
// an internal transfer completed or failed with its credit side recorded,
// a conversion settled or cancelled, a deleted rule. Anything else is read.
func TestFinalStatesNotReadAgain(t *testing.T) {
	type row struct {
		recorded map[string]string
		final    bool
	}
	check := func(name string, final func(func(string) string) bool, rows []row) {
		t.Helper()
		if final == nil {
			t.Fatalf("%s declares no final state", name)
		}
		for _, r := range rows {
			if got := final(recordedOf(r.recorded)); got != r.final {
				t.Errorf("%s recording %v: final = %v, want %v", name, r.recorded, got, r.final)
			}
		}
	}
	check("internal transfer", internalTransferObjects.final, []row{
		{map[string]string{"status": "COMPLETED", "credit_transfer_id": "c1"}, true},
		{map[string]string{"status": "FAILED", "credit_transfer_id": "c1"}, true},
		{map[string]string{"status": "COMPLETED"}, false},
		{map[string]string{"status": "PENDING", "credit_transfer_id": "c1"}, false},
	})
	check("stablecoin conversion", stablecoinConversionObjects.final, []row{
		{map[string]string{"status": "SETTLED", "settled_at": "2026-11-28T00:00:00Z"}, true},
		{map[string]string{"status": "CANCELLED", "cancelled_at": "2026-11-28T00:00:00Z"}, true},
		{map[string]string{"status": "PENDING"}, false},
	})
	check("orchestration rule", orchestrationRuleObjects.final, []row{
		{map[string]string{"status": "DELETED"}, true},
		{map[string]string{"status": "ACTIVE"}, false},
		{map[string]string{"status": "REJECTED"}, false},
		{map[string]string{"status": "PENDING"}, false},
	})
	check("fiat deposit instructions", instructionsObjects.final, []row{
		{map[string]string{"status": "DEPRECATED"}, true},
		{map[string]string{"status": "VALID"}, false},
	})
}

// A service without the list of transfers (but with the read by id) has
// its withdrawals read alone by id, as before lists: the refresh never
// takes a missing list for a missing read, and asks the list once only.
func TestReadGatheredWithoutList(t *testing.T) {
	var lists atomic.Int32
	hold, arrived := make(chan struct{}), make(chan struct{}, 1)
	var holdID atomic.Value
	holdID.Store("")
	f := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v2"+client.PathTransfers:
			lists.Add(1)
			http.NotFound(w, r)
			return
		case r.Method == http.MethodGet && holdID.Load() != "" && r.URL.Path == "/v2"+client.PathTransfers+"/"+holdID.Load().(string):
			arrived <- struct{}{}
			<-hold
		}
		next.ServeHTTP(w, r)
	})
	c := frontedClient(t, f)
	var ids []string
	for i := range 5 {
		tr, err := c.CreateCryptoWithdrawal(t.Context(), client.CryptoWithdrawalRequest{
			ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1",
			RefID: fmt.Sprintf("no-list-%d", i),
		})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tr.ID)
	}
	data := &moneyRun{client: c}
	k := withdrawalObjects
	read := func(id string, errs chan<- error) {
		tr, err := readGathered(t.Context(), data, k, id)
		if err == nil && tr.ID != id {
			err = fmt.Errorf("read %s answered %s", id, tr.ID)
		}
		errs <- err
	}
	for round, group := range [][]string{ids[:3], ids[2:]} {
		// The first read is held at the service while the others queue
		// behind it, so that they go together.
		holdID.Store(group[0])
		hold = make(chan struct{})
		errs := make(chan error, len(group))
		go read(group[0], errs)
		<-arrived
		holdID.Store("")
		g := data.lookups.gatherers["ids\x00"+k.words.refNamespace].(*gatherer[*client.Transfer])
		for _, id := range group[1:] {
			go read(id, errs)
		}
		for {
			g.mu.Lock()
			n := len(g.pending)
			g.mu.Unlock()
			if n == len(group)-1 {
				break
			}
			runtime.Gosched()
		}
		close(hold)
		for range group {
			if err := <-errs; err != nil {
				t.Errorf("round %d: %v", round+1, err)
			}
		}
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("%d list requests, want 1: the first says there is none", n)
	}
}

// fakeGatherClock is a clock for a gatherer's spacing: now moves only when
// the test moves it, and each wait asked of it is sent on waits, to end
// when the test fires it.
type fakeGatherClock struct {
	mu    sync.Mutex
	at    time.Time
	waits chan fakeWait
}

type fakeWait struct {
	d    time.Duration
	fire chan time.Time
}

func newFakeGatherClock(g *gatherer[string]) *fakeGatherClock {
	c := &fakeGatherClock{at: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC), waits: make(chan fakeWait, 8)}
	g.now = func() time.Time {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.at
	}
	g.after = func(d time.Duration) <-chan time.Time {
		w := fakeWait{d: d, fire: make(chan time.Time, 1)}
		c.waits <- w
		return w.fire
	}
	return c
}

func (c *fakeGatherClock) move(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// newSpacedGatherer is a recording gatherer spaced by gatherSpacing on a
// fake clock, its requests of one held until r.hold is closed and their
// keys sent on r.started; ask asks for key in the background and sends on
// answers the error, or a wrong answer as an error.
func newSpacedGatherer(t *testing.T) (r *recordingGatherer, clock *fakeGatherClock, answers chan error, ask func(key string)) {
	r = newRecordingGatherer()
	r.g.spacing = gatherSpacing
	clock = newFakeGatherClock(r.g)
	r.hold = make(chan struct{})
	r.started = make(chan string, 1)
	answers = make(chan error, 16)
	ask = func(key string) {
		go func() {
			res, err := r.g.get(t.Context(), key)
			if err == nil && res.val != "v:"+key {
				err = fmt.Errorf("%s answered %+v", key, res)
			}
			answers <- err
		}()
	}
	return r, clock, answers, ask
}

// While keys keep coming, the requests of a gatherer start at least its
// spacing apart: keys that come after a request is answered wait for the
// spacing and go together, unless as many callers wait as the gatherer
// ever held at once (no other key is coming: Terraform's parallelism is
// used up), and a key long after the last request goes alone at once.
func TestGathererSpacesRequestsWhileKeysKeepComing(t *testing.T) {
	r, clock, answers, ask := newSpacedGatherer(t)

	// Idle: the first key goes at once, alone; four more wait behind it.
	ask("first")
	if got := <-r.started; got != "first" {
		t.Fatalf("first request for %q", got)
	}
	r.started = nil
	for _, k := range []string{"a", "b", "c", "d"} {
		ask(k)
	}
	r.waitPending(t, 4)
	close(r.hold)

	// Answered at once on the gatherer's clock: the four wait out the
	// spacing, since a fifth caller may still come (five were held at
	// once).
	w := <-clock.waits
	if w.d != gatherSpacing {
		t.Errorf("waits %s, want the spacing %s", w.d, gatherSpacing)
	}
	if err := <-answers; err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	lists := len(r.lists)
	r.mu.Unlock()
	if lists != 0 || r.pending() != 4 {
		t.Fatalf("before the spacing: %d lists sent, %d waiting; want none sent, 4 waiting", lists, r.pending())
	}

	// A fifth comes: as many wait as were ever held, so the request goes
	// without the rest of the spacing.
	ask("e")
	for range 5 {
		if err := <-answers; err != nil {
			t.Error(err)
		}
	}
	r.mu.Lock()
	if len(r.lists) != 1 || !slices.Equal(slices.Sorted(slices.Values(r.lists[0])), []string{"a", "b", "c", "d", "e"}) {
		t.Errorf("lists %v, want one of a–e", r.lists)
	}
	r.mu.Unlock()

	// A key 100 ms after that request started waits the 150 ms left,
	// then goes alone.
	clock.move(100 * time.Millisecond)
	ask("f")
	w = <-clock.waits
	if w.d != gatherSpacing-100*time.Millisecond {
		t.Errorf("waits %s, want %s", w.d, gatherSpacing-100*time.Millisecond)
	}
	clock.move(w.d)
	w.fire <- time.Time{}
	if err := <-answers; err != nil {
		t.Fatal(err)
	}

	// A key long after the last request goes at once, alone, with no wait.
	clock.move(time.Second)
	ask("g")
	if err := <-answers; err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-clock.waits:
		t.Errorf("a key long after the last request waited %s", w.d)
	default:
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Equal(r.singles, []string{"first", "f", "g"}) || len(r.lists) != 1 {
		t.Errorf("requests: alone %v, lists %v; want first, f and g alone and one list", r.singles, r.lists)
	}
}

// While requests of many keys follow one another, the spacing doubles from
// the second of them on, up to maxGatherSpacing; a request long after the
// last one starts anew, at the spacing.
func TestGathererSpacingGrowsWhileManyKeysKeepComing(t *testing.T) {
	r, clock, answers, ask := newSpacedGatherer(t)
	// Three callers at once: two keys waiting are not yet all there are.
	ask("first")
	<-r.started
	r.started = nil
	ask("x")
	ask("y")
	r.waitPending(t, 2)
	close(r.hold)
	if err := <-answers; err != nil {
		t.Fatal(err)
	}
	// Each round, two keys wait out the spacing and go together.
	round := func(want time.Duration, keys ...string) {
		t.Helper()
		w := <-clock.waits
		if w.d != want {
			t.Errorf("%v wait %s, want %s", keys, w.d, want)
		}
		r.waitPending(t, len(keys))
		clock.move(w.d)
		w.fire <- time.Time{}
		for range keys {
			if err := <-answers; err != nil {
				t.Fatal(err)
			}
		}
	}
	round(gatherSpacing, "x", "y")
	for i, want := range []time.Duration{gatherSpacing, 2 * gatherSpacing, maxGatherSpacing, maxGatherSpacing} {
		a, b := fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)
		ask(a)
		ask(b)
		round(want, a, b)
	}
	// Long after: at once, alone, and the next keys wait the spacing only.
	clock.move(3 * maxGatherSpacing)
	ask("late")
	if err := <-answers; err != nil {
		t.Fatal(err)
	}
	ask("p")
	ask("q")
	round(gatherSpacing, "p", "q")
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Equal(r.singles, []string{"first", "late"}) || len(r.lists) != 6 {
		t.Errorf("requests: alone %v, lists %v; want first and late alone and six lists", r.singles, r.lists)
	}
}

// Callers one after the other, never two at once, each go at once and
// alone however close together: nothing could join them.
func TestGathererOneAtATimeNeverWaits(t *testing.T) {
	r := newRecordingGatherer()
	r.g.spacing = gatherSpacing
	clock := newFakeGatherClock(r.g)
	for i := range 5 {
		clock.move(time.Millisecond)
		if _, err := r.g.get(t.Context(), fmt.Sprintf("ref-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case w := <-clock.waits:
		t.Errorf("a lone caller waited %s", w.d)
	default:
	}
	if len(r.singles) != 5 || len(r.lists) != 0 {
		t.Errorf("requests: alone %v, lists %v; want five alone", r.singles, r.lists)
	}
}

// Internal transfers are read many at once as the lookup and the read of
// one take them: by ref_ids, each debit with its credit side from the one
// list; by ids, the debits and then their credit sides, in two lists for
// any number of transfers.
func TestInternalTransferListsPairCredits(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	c := emulatorClient(t, emu)
	var refIDs, ids []string
	for i := range 3 {
		ref := fmt.Sprintf("internal-%d", i)
		tr, err := c.CreateInternalTransfer(t.Context(), client.InternalTransferRequest{
			FromProfileID: "prof-1", ToProfileID: "prof-2", Asset: "USD", Amount: "1", RefID: ref,
		})
		if err != nil {
			t.Fatal(err)
		}
		refIDs, ids = append(refIDs, ref), append(ids, tr.ID)
	}
	check := func(how string, got map[string]*internalTransfer, keys []string) {
		t.Helper()
		for i, k := range keys {
			it := got[k]
			if it == nil || it.ID != ids[i] || it.Type != client.TransferTypeInternalDebit {
				t.Fatalf("%s %s: %+v, want the debit %s", how, k, it, ids[i])
			}
			want, err := withCredit(t.Context(), c, &it.Transfer)
			if err != nil || want.credit == nil {
				t.Fatalf("the credit side of %s read alone: %+v, %v", ids[i], want, err)
			}
			if it.credit == nil || it.credit.ID != want.credit.ID {
				t.Errorf("%s %s: credit %+v, want %s", how, k, it.credit, want.credit.ID)
			}
		}
	}
	before := emu.Counters.Requests("GET /v2" + client.PathTransfers)
	got, err := internalTransferLists.byRefIDs(t.Context(), c, append(slices.Clone(refIDs), "never-made"))
	if err != nil {
		t.Fatal(err)
	}
	check("by ref_id", got, refIDs)
	if _, ok := got["never-made"]; ok || len(got) != 3 {
		t.Errorf("by ref_ids: %v", got)
	}
	if n := emu.Counters.Requests("GET /v2"+client.PathTransfers) - before; n != 1+3 {
		t.Errorf("%d lists, want 1 for the three and 3 for the credit sides read alone by the check", n)
	}
	before = emu.Counters.Requests("GET /v2" + client.PathTransfers)
	byID, err := internalTransferLists.byIDs(t.Context(), c, ids)
	if err != nil {
		t.Fatal(err)
	}
	if n := emu.Counters.Requests("GET /v2"+client.PathTransfers) - before; n != 2 {
		t.Errorf("%d lists, want 2 for the three: their debits, then their credit sides", n)
	}
	check("by id", byID, ids)
}

// listedCase is an object type read through listedBy: its list's path,
// its lists, and how to make one object with a ref_id (its id returned).
type listedCase struct {
	name string
	path string
	// idsOnly: the list takes no ref_ids (make's refID only tells the
	// objects apart); refIDsOnly: the objects are read alone by id.
	idsOnly, refIDsOnly bool
	ids                 func(ctx context.Context, c *client.Client, keys []string, byRef bool) (map[string]string, error)
	make                func(t *testing.T, c *client.Client, refID string) string
}

// listed is the listedCase of the objects of l at path, made by create
// and known by id.
func listed[T any](name, path string, l *objectLists[T], id func(T) string, create func(ctx context.Context, c *client.Client, refID string) (T, error)) listedCase {
	return listedCase{name: name, path: path, ids: listedKeys(l, id),
		make: func(t *testing.T, c *client.Client, refID string) string {
			t.Helper()
			v, err := create(t.Context(), c, refID)
			if err != nil {
				t.Fatal(err)
			}
			return id(v)
		}}
}

func (c listedCase) withIDsOnly() listedCase {
	c.idsOnly = true
	return c
}

func (c listedCase) withRefIDsOnly() listedCase {
	c.refIDsOnly = true
	return c
}

// listedKeys is byRefIDs or byIDs of l, each answer mapped to its id.
func listedKeys[T any](l *objectLists[T], id func(T) string) func(ctx context.Context, c *client.Client, keys []string, byRef bool) (map[string]string, error) {
	return func(ctx context.Context, c *client.Client, keys []string, byRef bool) (map[string]string, error) {
		read := l.byIDs
		if byRef {
			read = l.byRefIDs
		}
		if read == nil {
			return nil, errors.New("no such list")
		}
		got, err := read(ctx, c, keys)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for k, v := range got {
			out[k] = id(v)
		}
		return out, nil
	}
}

// Each list of listedBy is read to its last page before a key is taken
// for absent, answers only the keys asked, each with its own object, and
// fails whole when a page fails.
func TestListedByFollowPages(t *testing.T) {
	cases := []listedCase{
		listed("fiat deposit instructions", client.PathFiatDepositInstructions, instructionsLists,
			func(f *client.FiatDepositInstructions) string { return f.ID },
			func(ctx context.Context, c *client.Client, refID string) (*client.FiatDepositInstructions, error) {
				return c.CreateFiatDepositInstructions(ctx, client.FiatDepositInstructionsRequest{
					ProfileID: "profile-1", FiatNetwork: "WIRE", RefID: refID,
				})
			}),
		listed("deposit addresses", client.PathDepositAddresses, depositAddressLists,
			func(d *client.DepositAddress) string { return deref(d.ID) },
			func(ctx context.Context, c *client.Client, refID string) (*client.DepositAddress, error) {
				return c.CreateDepositAddress(ctx, client.DepositAddressRequest{
					ProfileID: "profile-1", CryptoNetwork: "ETHEREUM", RefID: refID,
				})
			}),
		listed("crypto destination addresses", client.PathCryptoDestinationAddresses, destinationLists,
			func(a *client.CryptoDestinationAddress) string { return a.ID },
			func(ctx context.Context, c *client.Client, refID string) (*client.CryptoDestinationAddress, error) {
				return c.PutCryptoDestinationAddress(ctx, client.PutCryptoDestinationAddressRequest{
					CryptoNetwork: "ETHEREUM", Address: fmt.Sprintf("0x%040x", []byte(refID)),
				})
			}).withIDsOnly(),
		// Rules: by ids with the list's filter; by ref_ids, which it
		// cannot filter, every rule read to the end.
		listed("orchestration rules", client.PathOrchestrationRules, orchestrationRuleLists,
			func(r *client.OrchestrationRule) string { return deref(r.ID) },
			func(ctx context.Context, c *client.Client, refID string) (*client.OrchestrationRule, error) {
				return c.CreateOrchestrationRule(ctx, client.OrchestrationRuleRequest{RefID: refID,
					ProfileID: "p", SourceAsset: "USDC", DestinationAsset: "USDG",
					Source: client.RuleRequestSource{Crypto: &client.RuleCryptoSourceRequest{Network: "ETHEREUM"}}})
			}),
		// Fiat accounts: each one listed under an asked ref_id is read
		// by id for its full answer.
		listed("fiat accounts", client.PathFiatAccounts, fiatAccountLists,
			func(a *client.FiatAccount) string { return deref(a.ID) },
			func(ctx context.Context, c *client.Client, refID string) (*client.FiatAccount, error) {
				return c.CreateFiatAccount(ctx, adaWireAccount(refID, "Bank "+refID), nil)
			}).withRefIDsOnly(),
		listed("profiles", client.PathProfiles, profileLists,
			func(p *client.Profile) string { return p.ID },
			func(ctx context.Context, c *client.Client, refID string) (*client.Profile, error) {
				return c.CreateProfile(ctx, client.CreateProfileRequest{Nickname: refID}, nil)
			}).withIDsOnly(),
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, failPage2, pages := pagedListClient(t, tc.path)
			var refIDs, ids []string
			for i := range 5 {
				ref := fmt.Sprintf("paged-%d", i)
				refIDs, ids = append(refIDs, ref), append(ids, tc.make(t, c, ref))
			}
			// One more, not asked for: it is never answered.
			tc.make(t, c, "not-asked")
			asked := append(slices.Clone(refIDs), "never-made")
			got, err := tc.ids(t.Context(), c, asked, true)
			switch {
			case tc.idsOnly && err == nil:
				t.Errorf("by ref_ids, of a list without them: %v", got)
			case !tc.idsOnly && err != nil:
				t.Fatal(err)
			case !tc.idsOnly:
				if n := pages.Swap(0); n != 3 {
					t.Errorf("%d pages read by ref_ids, want 3 (5 objects, 2 a page)", n)
				}
				want := map[string]string{}
				for i, ref := range refIDs {
					want[ref] = ids[i]
				}
				if !maps.Equal(got, want) {
					t.Errorf("by ref_ids: %v, want %v", got, want)
				}
			}
			byID, err := tc.ids(t.Context(), c, append(slices.Clone(ids), "never-made"), false)
			if tc.refIDsOnly {
				if err == nil {
					t.Errorf("by ids, of objects read alone: %v", byID)
				}
			} else {
				if n := pages.Load(); n != 3 {
					t.Errorf("%d pages read by ids, want 3 (5 objects, 2 a page)", n)
				}
				wantIDs := map[string]string{}
				for _, id := range ids {
					wantIDs[id] = id
				}
				if err != nil || !maps.Equal(byID, wantIDs) {
					t.Errorf("by ids: %v, %v; want %v", byID, err, wantIDs)
				}
			}

			failPage2.Store(true)
			for _, byRef := range []bool{!tc.idsOnly, tc.refIDsOnly} {
				keys := ids
				if byRef {
					keys = refIDs
				}
				if got, err := tc.ids(t.Context(), c, keys, byRef); err == nil || got != nil {
					t.Errorf("a failed second page answered %v, %v (by ref_ids: %t); want the error", got, err, byRef)
				}
			}
		})
	}
}
