package provider

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_profile",
		naturalKey: "its key is its nickname, not a ref_id: the service refuses a second profile of a nickname, " +
			"and a profile found under it after a lost answer is recorded only with the evidence of the attempt " +
			"(TestAccProfile_lostAnswer, TestAccProfile_exactlyOnce, TestAccProfile_lostAnswerAdoptsOnlyItsOwn, " +
			"TestLostCreateEvidence)",
		noFlow:       "a profile is an object the service keeps, not a movement",
		noAction:     "a profile is made once and kept: there is no invocation to make",
		noGuard:      "moves no money",
		movesNothing: "a profile holds balances; making one moves nothing",
		noUpgrade:    "new in 0.2.0: no earlier release wrote a state of it",
	})
}
