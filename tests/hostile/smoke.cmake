# The harness itself: a test runs in its own empty directory.
dlca_cli_test(hostile.own_directory sh -c "test -z \"$(ls -A)\" && touch stray && test -e stray")
