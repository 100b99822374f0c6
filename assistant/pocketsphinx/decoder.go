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
#include <sphinxbase/fe.h>

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

// vl_min_word_posterior is the smallest posterior (0..1) of a word of the best path,
// fillers excluded; 1 when the path has no word.
static double vl_min_word_posterior(ps_decoder_t *ps) {
	double lowest = 1;
	int32 ascr, lscr, lback;
	ps_seg_t *seg;
	for (seg = ps_seg_iter(ps); seg != NULL; seg = ps_seg_next(seg)) {
		const char *w = ps_seg_word(seg);
		if (w[0] == '<' || w[0] == '[' || w[0] == '+') {
			continue;
		}
		double p = logmath_exp(ps_get_logmath(ps), ps_seg_prob(seg, &ascr, &lscr, &lback));
		if (p < lowest) {
			lowest = p;
		}
	}
	return lowest;
}

// vl_cmn_prime sets the live cepstral mean to the mean of the utterance's own
// cepstra, computed with the decoder's front end. Returns 0, or -1 when it could not.
static int vl_cmn_prime(ps_decoder_t *ps, const int16 *samples, size_t n) {
	enum { block = 64 };
	fe_t *fe = ps_get_fe(ps);
	feat_t *f = ps_get_feat(ps);
	if (fe == NULL || f == NULL || f->cmn_struct == NULL) {
		return -1;
	}
	int ncep = fe_get_output_size(fe);
	if (ncep != f->cmn_struct->veclen) {
		return -1;
	}
	mfcc_t *buf = malloc(sizeof(mfcc_t) * ncep * (block + 1));
	mfcc_t *rows[block + 1];
	double *sum = calloc(ncep, sizeof(double));
	if (buf == NULL || sum == NULL) {
		free(buf);
		free(sum);
		return -1;
	}
	for (int i = 0; i <= block; i++) {
		rows[i] = buf + i * ncep;
	}
	long frames = 0;
	int rv = fe_start_utt(fe);
	const int16 *p = samples;
	while (rv >= 0 && n > 0) {
		int32 nfr = block;
		int32 idx;
		size_t before = n;
		rv = fe_process_frames(fe, &p, &n, rows, &nfr, &idx);
		for (int i = 0; rv >= 0 && i < nfr; i++) {
			for (int k = 0; k < ncep; k++) {
				sum[k] += MFCC2FLOAT(rows[i][k]);
			}
		}
		frames += nfr;
		if (nfr == 0 && n == before) {
			break;
		}
	}
	int32 last = 0;
	fe_end_utt(fe, rows[block], &last);
	if (last > 0) {
		for (int k = 0; k < ncep; k++) {
			sum[k] += MFCC2FLOAT(rows[block][k]);
		}
		frames += last;
	}
	if (rv >= 0 && frames > 0) {
		for (int k = 0; k < ncep; k++) {
			buf[k] = FLOAT2MFCC(sum[k] / frames);
		}
		cmn_live_set(f->cmn_struct, buf);
	}
	free(buf);
	free(sum);
	return rv >= 0 && frames > 0 ? 0 : -1;
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
	// argv holds the configuration strings: sphinxbase documents that its parsed
	// configuration may point into them, and the decoder keeps that configuration,
	// so they are freed with the decoder.
	argv []*C.char
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
	// The argv array itself is Go memory that C reads only during the call; the
	// strings it points to are C memory, kept until close.
	ps := C.vl_decoder_new(C.int(len(argv)), &argv[0])
	if ps == nil {
		freeAll(argv)
		return nil, errors.New("pocketsphinx: the decoder could not be initialised from " + modelDir)
	}
	return &decoder{ps: ps, general: C.GoString(C.ps_get_search(ps)), argv: argv}, nil
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
	// Live cepstral mean normalisation starts each utterance from the mean the last
	// one ended with, and only updates it after a few seconds: the first recording
	// after start-up would be heard through the model's generic initial mean (badly,
	// for telephone-band audio), and each caller's recording would change how the
	// next caller's is heard. Starting from the utterance's own mean makes a
	// transcript depend on its recording alone.
	if len(pcm) > 0 {
		C.vl_cmn_prime(d.ps, (*C.int16)(unsafe.Pointer(&pcm[0])), C.size_t(len(pcm)))
	}
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
	var h hypothesis
	if p := C.ps_get_hyp(d.ps, &score); p != nil {
		h.text = cleanHypothesis(C.GoString(p))
	}
	if h.text != "" {
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
	freeAll(d.argv)
	d.argv = nil
}

// freeAll frees C strings.
func freeAll(strs []*C.char) {
	for _, s := range strs {
		C.free(unsafe.Pointer(s))
	}
}
