# An address already in the withdrawal address book is imported by its id.
terraform import platform_crypto_destination_address.cold_wallet 31f20a34-c1eb-4c86-adad-1e46bc271e1a
