"""Layer 7: the command line. The only place that touches argv, stdout, stderr, exit codes."""
