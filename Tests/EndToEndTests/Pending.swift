// End-to-end tests land with the tunnel host client.
