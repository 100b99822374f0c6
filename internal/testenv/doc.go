// Package testenv decides what a test does when a real component it needs (a
// PostgreSQL server, a Chromium browser, poppler's pdftoppm) is not available: under
// CI=true the test fails, so that a CI run cannot pass without the component; outside
// CI it skips, saying what is missing and how to provide it.
package testenv
