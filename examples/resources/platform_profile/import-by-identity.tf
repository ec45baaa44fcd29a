import {
  to       = platform_profile.treasury
  identity = { id = "b7b77d82-e6a7-4ae9-9904-36231aedf985" }
}
