package chipauth

import (
	"bytes"
	"reflect"
	"sync"
	"testing"
)

// gmrtdSODs are the real SODs that chain to csca_for_gmrtd_sods.pem, each with
// its own Document Signer certificate.
func gmrtdSODs(t *testing.T) (*TrustStore, map[string][]byte) {
	t.Helper()
	ts := NewTrustStore()
	if _, err := ts.AddCertificates(readTestdata(t, "csca_for_gmrtd_sods.pem")); err != nil {
		t.Fatal(err)
	}
	sods := map[string][]byte{}
	for _, name := range []string{"gmrtd_DE_EF_SOD.der", "gmrtd_FI_EF_SOD.der", "gmrtd_FR_EF_SOD.der", "gmrtd_ID_EF_SOD.der",
		"gmrtd_NZ_EF_SOD.der", "gmrtd_PH_EF_SOD.der", "gmrtd_RU_EF_SOD.der", "gmrtd_SG_EF_SOD.der",
		"gmrtd_GB2023_EF_SOD.der", "gmrtd_US_EF_SOD.der"} {
		sod := readTestdata(t, name)
		if _, err := Verify(sod, nil, ts, Options{Now: realNow, WithoutDataGroups: true}); err == nil {
			sods[name] = sod
		}
	}
	if len(sods) < 3 {
		t.Fatalf("only %d real SODs chain to the PEM bundle", len(sods))
	}
	ts.SetSignerCacheSize(0) // empty again
	ts.SetSignerCacheSize(DefaultSignerCacheSize)
	return ts, sods
}

// TestSignerCacheSameResult: a document verified with its DS certificate from the
// cache gets exactly the Result of a store without the cache, every time.
func TestSignerCacheSameResult(t *testing.T) {
	warm, sods := gmrtdSODs(t)
	cold, _ := gmrtdSODs(t)
	cold.SetSignerCacheSize(0)
	opts := Options{Now: realNow, WithoutDataGroups: true}
	for round := range 3 {
		for name, sod := range sods {
			want, werr := Verify(sod, nil, cold, opts)
			got, gerr := Verify(sod, nil, warm, opts)
			if werr != nil || gerr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %s: cached %+v (%v), uncached %+v (%v)", round, name, got, gerr, want, werr)
			}
		}
	}
	embedded := map[[32]byte]bool{} // some SODs carry more than their DS certificate
	for _, sod := range sods {
		for _, c := range mustSignedData(t, sod).certs {
			embedded[c.fingerprint] = true
		}
	}
	if n := warm.signers.len(); n != len(embedded) {
		t.Errorf("cache holds %d certificates, want the %d embedded in the SODs", n, len(embedded))
	}
	if n := cold.signers.len(); n != 0 {
		t.Errorf("a cache of size 0 holds %d certificates", n)
	}
}

// TestSignerCacheOwnsItsBytes: the cache keeps a copy, so a caller reusing its SOD
// buffer after Verify cannot change a cached certificate.
func TestSignerCacheOwnsItsBytes(t *testing.T) {
	ts, sods := gmrtdSODs(t)
	opts := Options{Now: realNow, WithoutDataGroups: true}
	for name, sod := range sods {
		buf := bytes.Clone(sod)
		want, err := Verify(buf, nil, ts, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range buf {
			buf[i] = 0xff
		}
		for _, c := range ts.signers.certs {
			if len(bytes.Trim(c.raw, "\xff")) == 0 {
				t.Fatalf("%s: a cached certificate changed with the caller's buffer", name)
			}
		}
		got, err := Verify(bytes.Clone(sod), nil, ts, opts)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s after the first buffer was overwritten: %+v (%v), want %+v", name, got, err, want)
		}
	}
}

// TestSignerCacheTamperedCertificate: a DS certificate one byte away from a cached
// one is read afresh and fails on its own merits.
func TestSignerCacheTamperedCertificate(t *testing.T) {
	ts, sods := gmrtdSODs(t)
	opts := Options{Now: realNow, WithoutDataGroups: true}
	for name, sod := range sods {
		if _, err := Verify(sod, nil, ts, opts); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var ds *certificate
		for _, c := range ts.signers.certs {
			if bytes.Contains(sod, c.raw) {
				ds = c
			}
		}
		if ds == nil {
			t.Fatalf("%s: its DS certificate is not in the cache", name)
		}
		at := bytes.Index(sod, ds.raw) + len(ds.raw) - 1 // the last byte of its signature
		bad := bytes.Clone(sod)
		bad[at] ^= 0x01
		res, err := Verify(bad, nil, ts, opts)
		if err == nil || res.ChainCheck.Status == CheckSucceeded {
			t.Errorf("%s with a corrupted DS certificate signature: chain %+v, err %v", name, res.ChainCheck, err)
		}
		if _, err := Verify(sod, nil, ts, opts); err != nil {
			t.Errorf("%s again after the corrupted one: %v", name, err)
		}
	}
}

// TestSignerCacheBounded: the cache never holds more than its size, and a size of
// 0 turns it off without changing what Verify answers.
func TestSignerCacheBounded(t *testing.T) {
	ts, sods := gmrtdSODs(t)
	opts := Options{Now: realNow, WithoutDataGroups: true}
	for _, size := range []int{3, 1, 0} {
		ts.SetSignerCacheSize(size)
		for range 2 {
			for name, sod := range sods {
				if _, err := Verify(sod, nil, ts, opts); err != nil {
					t.Fatalf("size %d, %s: %v", size, name, err)
				}
				if n := ts.signers.len(); n > size {
					t.Fatalf("size %d holds %d certificates", size, n)
				}
			}
		}
	}
}

// TestSignerCacheConcurrent verifies the real SODs from many goroutines through a
// cache of two, so that entries are added and evicted all the time (run with -race).
func TestSignerCacheConcurrent(t *testing.T) {
	ts, sods := gmrtdSODs(t)
	ts.SetSignerCacheSize(2)
	opts := Options{Now: realNow, WithoutDataGroups: true}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				for name, sod := range sods {
					if _, err := Verify(sod, nil, ts, opts); err != nil {
						t.Errorf("%s: %v", name, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
