//go:build pocketsphinx

package pocketsphinx

/*
#cgo pkg-config: pocketsphinx sphinxbase
#include <stdlib.h>
#include <stdio.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/cmn.h>

// cmd_ln_init is variadic, which cgo cannot call; cmd_ln_parse_r takes the same
// name/value pairs as an argv (argv[0] is skipped, as a program name).
static ps_decoder_t *vl_decoder_new(int argc, char **argv) {
	cmd_ln_t *cfg = cmd_ln_parse_r(NULL, ps_args(), argc, argv, 1);
	if (cfg == NULL) {
		return NULL;
	}
	ps_decoder_t *ps = ps_init(cfg);
	cmd_ln_free_r(cfg);
	return ps;
}

// vl_posterior is the posterior probability (0..1) of the last hypothesis, from the
// word lattice; 0 when there is no lattice.
static double vl_posterior(ps_decoder_t *ps) {
	int32 lp = ps_get_prob(ps);
	return logmath_exp(ps_get_logmath(ps), lp);
}

// vl_min_word_posterior is the smallest posterior (0..1) of a word of the best path,
// fillers excluded; 1 when the path has no word.
static double vl_min_word_posterior(ps_decoder_t *ps) {
	double lowest = 1;
	int32 ascr, lscr, lback;
	ps_seg_t *seg;
	for (seg = ps_seg_iter(ps); seg != NULL; seg = ps_seg_next(seg)) {
		const char *w = ps_seg_word(seg);
		if (w[0] == '<' || w[0] == '[') {
			continue;
		}
		double p = logmath_exp(ps_get_logmath(ps), ps_seg_prob(seg, &ascr, &lscr, &lback));
		if (p < lowest) {
			lowest = p;
		}
	}
	return lowest;
}

// vl_cmn_save copies the decoder's initial cepstral mean, so that every utterance
// can start from it (see decoder.cmnInit).
static mfcc_t *vl_cmn_save(ps_decoder_t *ps) {
	feat_t *f = ps_get_feat(ps);
	if (f == NULL || f->cmn_struct == NULL) {
		return NULL;
	}
	mfcc_t *v = malloc(sizeof(mfcc_t) * f->cmn_struct->veclen);
	if (v != NULL) {
		cmn_live_get(f->cmn_struct, v);
	}
	return v;
}

static void vl_cmn_restore(ps_decoder_t *ps, mfcc_t *v) {
	feat_t *f = ps_get_feat(ps);
	if (v != NULL && f != NULL && f->cmn_struct != NULL) {
		cmn_live_set(f->cmn_struct, v);
	}
}

static void vl_silence_log(void) {
	err_set_logfp(NULL);
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unsafe"
)

// chunkSamples is how much audio (0.25 s at 16 kHz) the decoder takes between two
// checks of the caller's context.
const chunkSamples = 4000

// silenceLog turns off sphinxbase's log, which otherwise writes every configuration
// value and every utterance to the process's stderr. The log stream is a C global, so
// this is done once per process.
var silenceLog = sync.OnceFunc(func() { C.vl_silence_log() })

// decoder is one PocketSphinx decoder with its searches: the stock model ("general")
// and, when loaded, the assistant's domain model. A decoder is not safe for
// concurrent use; the Transcriber's pool hands each to one caller at a time.
type decoder struct {
	ps      *C.ps_decoder_t
	general string // name of the search over the stock en-us language model
	// cmnInit is the cepstral mean the models start with. Live cepstral mean
	// normalisation otherwise carries each utterance's mean into the next, so that one
	// caller's recording would change how the next caller's is heard, and the two
	// searches of one recording would see different features.
	cmnInit *C.mfcc_t
}

// domainSearch names the search over the assistant's own language model.
const domainSearch = "veriland-domain"

// newDecoder loads the acoustic model, dictionary and stock language model from
// modelDir. Missing files are checked here, because sphinxbase ends the process on
// some unreadable model files instead of returning an error.
func newDecoder(modelDir string) (*decoder, error) {
	silenceLog()
	hmm := filepath.Join(modelDir, "en-us")
	lm := filepath.Join(modelDir, "en-us.lm.bin")
	dict := filepath.Join(modelDir, "cmudict-en-us.dict")
	for _, p := range []string{filepath.Join(hmm, "mdef"), filepath.Join(hmm, "means"), lm, dict} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("pocketsphinx: model file missing: %w", err)
		}
	}
	args := []string{"pocketsphinx", "-hmm", hmm, "-lm", lm, "-dict", dict, "-samprate", "16000"}
	argv := make([]*C.char, len(args))
	for i, a := range args {
		argv[i] = C.CString(a)
	}
	// cmd_ln_parse_r keeps pointers into argv for the life of the configuration,
	// which ends inside vl_decoder_new (ps_init takes its own reference and copies).
	ps := C.vl_decoder_new(C.int(len(argv)), &argv[0])
	for _, a := range argv {
		C.free(unsafe.Pointer(a))
	}
	if ps == nil {
		return nil, errors.New("pocketsphinx: the decoder could not be initialised from " + modelDir)
	}
	return &decoder{ps: ps, general: C.GoString(C.ps_get_search(ps)), cmnInit: C.vl_cmn_save(ps)}, nil
}

// hasWord reports whether the dictionary knows word.
func (d *decoder) hasWord(word string) bool {
	cw := C.CString(word)
	defer C.free(unsafe.Pointer(cw))
	p := C.ps_lookup_word(d.ps, cw)
	if p == nil {
		return false
	}
	C.free(unsafe.Pointer(p))
	return true
}

// addWord adds word with its phones (en-us phone set, space-separated).
func (d *decoder) addWord(word, phones string) error {
	cw, cp := C.CString(word), C.CString(phones)
	defer C.free(unsafe.Pointer(cw))
	defer C.free(unsafe.Pointer(cp))
	if C.ps_add_word(d.ps, cw, cp, 1) < 0 {
		return fmt.Errorf("pocketsphinx: cannot add %q to the dictionary", word)
	}
	return nil
}

// loadDomain adds the domain search from an ARPA file.
func (d *decoder) loadDomain(arpaPath string) error {
	cn, cp := C.CString(domainSearch), C.CString(arpaPath)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cp))
	if C.ps_set_lm_file(d.ps, cn, cp) < 0 {
		return errors.New("pocketsphinx: the domain language model was refused")
	}
	return nil
}

// decode runs one search over 16 kHz mono samples. It checks ctx between chunks and
// leaves the decoder ready for the next utterance whatever happens.
func (d *decoder) decode(ctx context.Context, search string, pcm []int16) (hypothesis, error) {
	cs := C.CString(search)
	defer C.free(unsafe.Pointer(cs))
	if C.ps_set_search(d.ps, cs) < 0 {
		return hypothesis{}, fmt.Errorf("pocketsphinx: no search %q", search)
	}
	C.vl_cmn_restore(d.ps, d.cmnInit)
	if C.ps_start_utt(d.ps) < 0 {
		return hypothesis{}, errors.New("pocketsphinx: cannot start an utterance")
	}
	for off := 0; off < len(pcm); off += chunkSamples {
		if err := ctx.Err(); err != nil {
			C.ps_end_utt(d.ps)
			return hypothesis{}, err
		}
		end := min(off+chunkSamples, len(pcm))
		// The samples are plain int16 values with no Go pointers inside, which cgo
		// allows C to read for the duration of the call.
		if C.ps_process_raw(d.ps, (*C.int16)(unsafe.Pointer(&pcm[off])), C.size_t(end-off), 0, 0) < 0 {
			C.ps_end_utt(d.ps)
			return hypothesis{}, errors.New("pocketsphinx: the decoder refused the audio")
		}
	}
	if C.ps_end_utt(d.ps) < 0 {
		return hypothesis{}, errors.New("pocketsphinx: cannot end the utterance")
	}
	var score C.int32
	h := hypothesis{frames: int(C.ps_get_n_frames(d.ps))}
	if p := C.ps_get_hyp(d.ps, &score); p != nil {
		h.text = cleanHypothesis(C.GoString(p))
	}
	if h.text != "" {
		h.posterior = float64(C.vl_posterior(d.ps))
		h.minWord = float64(C.vl_min_word_posterior(d.ps))
	}
	return h, nil
}

// close frees the decoder.
func (d *decoder) close() {
	if d.ps != nil {
		C.ps_free(d.ps)
		d.ps = nil
	}
	if d.cmnInit != nil {
		C.free(unsafe.Pointer(d.cmnInit))
		d.cmnInit = nil
	}
}
