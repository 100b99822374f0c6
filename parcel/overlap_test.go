package parcel_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

// square returns a GeoJSON Polygon of a square of side d degrees at (lon, lat).
func square(lon, lat, d float64) []byte {
	return fmt.Appendf(nil, `{"type":"Polygon","coordinates":[[[%g,%g],[%g,%g],[%g,%g],[%g,%g],[%g,%g]]]}`,
		lon, lat, lon+d, lat, lon+d, lat+d, lon, lat+d, lon, lat)
}

func withBoundary(t *testing.T, raw []byte) parcel.CreateRequest {
	t.Helper()
	b, err := parcel.ParseBoundary(raw)
	require.NoError(t, err)
	r := validRequest()
	r.Parcel.Boundary = raw
	r.Parcel.AreaM2 = ptr(b.AreaM2())
	return r
}

func TestBoundaryOverlap(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	a, err := f.svc.Create(ctx, owner, withBoundary(t, square(7.39, 9.07, 0.001)))
	require.NoError(t, err)
	require.NotEmpty(t, a.Boundary)
	// Overlapping a PENDING parcel is allowed: only CERTIFIED parcels count.
	b, err := f.svc.Create(ctx, owner, withBoundary(t, square(7.3905, 9.0705, 0.001)))
	require.NoError(t, err)
	_, err = f.svc.Certify(ctx, notary, a.ID)
	require.NoError(t, err)

	_, err = f.svc.Create(ctx, otherOwner, withBoundary(t, square(7.3905, 9.0705, 0.001)))
	require.Equal(t, veriland.CodeParcelOverlap, codeOf(err))
	var ve *veriland.Error
	require.True(t, errors.As(err, &ve))
	require.Equal(t, a.ID, ve.Meta["parcelId"])
	// Certifying the pending overlapping one is refused as well.
	_, err = f.svc.Certify(ctx, notary, b.ID)
	require.Equal(t, veriland.CodeParcelOverlap, codeOf(err))
	// A neighbour that only shares an edge is fine.
	_, err = f.svc.Create(ctx, owner, withBoundary(t, square(7.391, 9.07, 0.001)))
	require.NoError(t, err)
	// Another environment does not see environment's parcels.
	_, err = f.svc.Create(ctx, sbxOwner, withBoundary(t, square(7.3905, 9.0705, 0.001)))
	require.NoError(t, err)
	// Once revoked, the boundary is free again.
	_, err = f.svc.Revoke(ctx, admin, a.ID, "")
	require.NoError(t, err)
	_, err = f.svc.Certify(ctx, notary, b.ID)
	require.NoError(t, err)

	// Area disagreement and bad GeoJSON are validation errors under /parcel.
	r := withBoundary(t, square(10, 10, 0.001))
	r.Parcel.AreaM2 = ptr(*r.Parcel.AreaM2 * 1.2)
	_, err = f.svc.Create(ctx, owner, r)
	require.Equal(t, "/parcel/area_m2", veriland.ErrorList(err)[0].Pointer)
	r.Parcel.Boundary = []byte(`{"type":"Point","coordinates":[1,2]}`)
	_, err = f.svc.Create(ctx, owner, r)
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
}
