# A profile that already exists is imported by its id.
terraform import platform_profile.treasury b7b77d82-e6a7-4ae9-9904-36231aedf985
