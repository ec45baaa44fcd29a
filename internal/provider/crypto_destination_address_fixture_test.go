package provider

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_crypto_destination_address",
		naturalKey: "its key is its tuple (network, address, identity), not a ref_id: the PUT that adds an entry " +
			"updates the one the tuple names, and an entry found under it after a lost answer is recorded only " +
			"with the evidence of the attempt (TestAccCryptoDestinationAddress_alreadyInBook, " +
			"TestDestinationAddressAdoptsOnlyItsOwn, TestLostCreateEvidence)",
		noFlow:       "an entry of the address book is kept by the service, not a movement",
		noAction:     "an entry is added once and kept: there is no invocation to make",
		noGuard:      "moves no money",
		movesNothing: "an entry names where withdrawals may go; adding one moves nothing",
		noUpgrade: "new in 0.2.0: no earlier release wrote a state of it (TestAccCryptoDestinationAddress_upgrade " +
			"upgrades a state written before it became a declaration of the core)",
	})
}
