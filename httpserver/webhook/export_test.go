package webhook

import (
	"io"

	"github.com/veriland/veriland/internal/ids"
)

// WithLegacyID gives p a wholly random id (ids.New), as Prepare gave every delivery
// before delivery ids were time-ordered, so that tests can write the records of the
// old build through the real Enqueue.
func (p *PreparedDelivery) WithLegacyID(rand io.Reader) error {
	id, err := ids.New(rand, DeliveryIDPrefix)
	if err != nil {
		return err
	}
	r := *p.r
	r.ID = id
	raw, err := encodeRecord(&r)
	if err != nil {
		return err
	}
	p.r, p.raw = &r, raw
	return nil
}
