package htmlpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
)

// ElementHash returns the CSP source expression ("sha256-<base64>") of the content
// of the only element of doc that opens with exactly open, up to the first close
// after it. It fails when open does not occur exactly once or close does not follow
// it. (A longer opening tag, such as a JSON data block's <script type=…>, is another
// element and is not counted.)
func ElementHash(doc []byte, open, close string) (string, error) {
	if n := bytes.Count(doc, []byte(open)); n != 1 {
		return "", fmt.Errorf("the page must hold exactly one %s element, has %d", open, n)
	}
	_, rest, _ := bytes.Cut(doc, []byte(open))
	body, _, ok := bytes.Cut(rest, []byte(close))
	if !ok {
		return "", fmt.Errorf("the page's %s element is not closed", open)
	}
	return Hash(body), nil
}

// Hash returns the CSP source expression of content.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
