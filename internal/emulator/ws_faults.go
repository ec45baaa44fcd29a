package emulator

// HoldStreamData withholds (when on) every stream data message: market_data
// snapshots and updates, top-of-book, execution and heartbeat messages of
// every connection are discarded instead of sent, while handshakes, replies
// to subscribe, unsubscribe and subscription_list, error frames and pings
// go on as usual. It models a market that is subscribed to but never
// delivers, so that callers' timeouts can be tested. Turning it off lets
// later messages through; withheld ones are not replayed.
func (s *Server) HoldStreamData(on bool) {
	s.ws.hold.Store(on)
}
