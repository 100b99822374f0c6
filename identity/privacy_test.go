package identity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// TestNoPersonalDataAtRest issues identities whose payloads are full of distinctive
// strings, closes the store, and reads every byte of the bbolt file: neither the
// payload nor the subjectRef may be anywhere in it.
func TestNoPersonalDataAtRest(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secrets := []string{
		"SUBJECTREF-Zq8vK2mX", // subject references
		"SUBJECTREF-Wp3nL7rT",
		"SUBJECTREF-Hj5cB9sD",
		"Xanthippe-Quillfeather", "1987-03-29", "PASSPORT-NX4471902",
		"42 Rue des Ormeaux Bleus", "+33-6-9911-2288", "xanthippe@quill.example",
		"BIOMETRIC-TEMPLATE-a9f3c1",
	}
	doc := map[string]any{
		"fullName": secrets[3], "dateOfBirth": secrets[4], "documentNumber": secrets[5],
		"address": secrets[6], "phone": secrets[7], "email": secrets[8],
		"nested": map[string]any{"template": secrets[9], "list": []string{secrets[3], secrets[5]}},
	}
	for i, scenario := range []string{"success", "review", "timeout"} {
		doc["scenario"] = scenario
		raw, err := json.Marshal(doc)
		require.NoError(t, err)
		_, err = f.svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
			SubjectRef: secrets[i], CountryCode: "FR", Payload: raw,
		})
		require.NoError(t, err)
	}
	// A provider failure, and a refused payload, leave nothing either.
	for _, scenario := range []string{"unavailable", "bogus"} {
		doc["scenario"] = scenario
		raw, err := json.Marshal(doc)
		require.NoError(t, err)
		_, err = f.svc.Issue(ctx, veriland.Production, identity.IssueRequest{SubjectRef: secrets[0], CountryCode: "FR", Payload: raw})
		require.Error(t, err)
	}
	require.NoError(t, f.store.Close())

	file, err := os.ReadFile(f.path)
	require.NoError(t, err)
	require.Greater(t, len(file), 0)
	for _, s := range secrets {
		require.False(t, bytes.Contains(file, []byte(s)), "found %q in the database file", s)
		require.False(t, bytes.Contains(bytes.ToLower(file), bytes.ToLower([]byte(s))), "found %q (any case)", s)
	}
	// The sanity check that the scan sees data at all.
	require.True(t, bytes.Contains(file, []byte("did:veriland:")))
}
