package dashboard

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/catalogue"
)

// families are the labels the script builds from a value of the API rather than
// names in full: each family with exactly the values it names.
var families = map[string][]string{
	"role.":           {"holder", "verifier", "notary", "admin"},
	"title.":          {"MINTED", "PENDING", "BURNED", "FAILED", "DISABLED"},
	"heldBy.":         {"OWNER_WALLET", "REGISTRY_CUSTODY"},
	"holder.":         {"OWNER_WALLET", "REGISTRY_CUSTODY"},
	"seeded.holder.":  {"subjectRef", "did", "walletAddress", "privateKey"},
	"seeded.":         {"parcels.certified", "parcels.rejected", "parcels.pending", "parcels.withOpenTransfer", "transfers.open", "verificationRequests.approved", "verificationRequests.pending", "attestations.consent"},
	"plural (.one)":   nil, // the keys plural() is called with, below
	"plural (.other)": nil,
}

// usedLabels returns every label the page uses: by the template ({{t .Lang "…"}}),
// by the script (t('…'), tn('…'), plural('…') and its .one and .other, the two of a
// ternary), and the families it builds from an API value.
func usedLabels(t *testing.T) map[string]bool {
	t.Helper()
	used := map[string]bool{}
	for _, re := range []string{
		`\{\{t \.Lang "([\w.]+)"\}\}`,
		`\bt\('([\w.]+)'`,
		`\btn\('([\w.]+)'`,
		`\btn\(\w+(?:\.\w+)* \? '([\w.]+)' : '([\w.]+)'`,
	} {
		for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(source, -1) {
			for _, k := range m[1:] {
				if !strings.HasSuffix(k, ".") { // a family, below
					used[k] = true
				}
			}
		}
	}
	for _, m := range regexp.MustCompile(`\bplural\('([\w.]+)'`).FindAllStringSubmatch(source, -1) {
		used[m[1]+".one"], used[m[1]+".other"] = true, true
	}
	for family, values := range families {
		if values != nil {
			require.Contains(t, source, "'"+family+"'", "the script builds the family %s", family)
		}
		for _, v := range values {
			used[family+v] = true
		}
	}
	return used
}

// Every label the page uses exists, and every label exists for a use.
func TestDashboardLabelsAreUsed(t *testing.T) {
	used := usedLabels(t)
	require.Greater(t, len(used), 200)
	for k := range used {
		require.NotEmpty(t, Label("en", k), "the page uses %q, which the catalogue's dashboard table lacks", k)
	}
	for k := range labels[catalogue.Default] {
		require.True(t, used[k], "the catalogue's dashboard table has %q, which the page never uses", k)
	}
}

// placeholders returns the sorted {names} of s.
func placeholders(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\{(\w+)\}`).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// untranslated are the labels that read the same in a language as in English: codes,
// units and the summary's punctuation in every language ("*"), and the words a
// language writes as English does.
var untranslated = map[string][]string{
	"*":  {"fact.url", "fact.gps", "attempts.ms", "area", "notary.summary"},
	"fr": {"fact.version", "audit.action"},
	"es": {"error", "fact.hash", "fact.token"},
	"pt": {"fact.hash", "fact.token"},
	"de": {"fact.version", "deliveries.status"},
	"it": {"fact.token", "fact.account", "who.account", "col.scenario"},
}

// Every language has exactly the labels of English, none empty, each with the
// placeholders of English, and translated: no label of another language is the
// English one, but for codes and units.
func TestDashboardLabelsAreTranslated(t *testing.T) {
	require.NoError(t, catalogue.Check(labels))
	for _, lang := range catalogue.Languages {
		require.ElementsMatch(t, slices.Collect(maps.Keys(labels[catalogue.Default])), slices.Collect(maps.Keys(labels[lang])), lang)
		for k, v := range labels[lang] {
			require.NotEmpty(t, strings.TrimSpace(v), "%s: %s", lang, k)
			require.Equal(t, placeholders(Label("en", k)), placeholders(v), "%s: %s keeps the placeholders of English", lang, k)
			if lang != catalogue.Default && !slices.Contains(untranslated["*"], k) && !slices.Contains(untranslated[lang], k) {
				require.NotEqual(t, Label("en", k), v, "%s: %s is not translated", lang, k)
			}
		}
	}
	require.Equal(t, Label("en", "title"), Label("xx", "title"), "an unknown language reads as English")
	require.Empty(t, Label("en", "no.such.key"))
}
