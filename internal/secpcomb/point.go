package secpcomb

// affine is a point (x, y) on y² = x³ + 7; never the point at infinity.
type affine struct{ x, y fe }

// jacobian is the point (X/Z², Y/Z³), or the point at infinity when inf is set.
type jacobian struct {
	x, y, z fe
	inf     bool
}

var feOne = fe{1}

// addMixed sets p = p + q.
func (p *jacobian) addMixed(q *affine) {
	if p.inf {
		*p = jacobian{x: q.x, y: q.y, z: feOne}
		return
	}
	var z1z1, u2, s2, h, r fe
	feSquare(&z1z1, &p.z)
	feMul(&u2, &q.x, &z1z1)
	feMul(&s2, &q.y, &p.z)
	feMul(&s2, &s2, &z1z1)
	feSub(&h, &u2, &p.x)
	feSub(&r, &s2, &p.y)
	if h.isZero() {
		if r.isZero() {
			p.double()
		} else {
			*p = jacobian{inf: true}
		}
		return
	}
	var hh, hhh, v, x3, y3, t fe
	feSquare(&hh, &h)
	feMul(&hhh, &h, &hh)
	feMul(&v, &p.x, &hh)
	feSquare(&x3, &r)
	feSub(&x3, &x3, &hhh)
	feSub(&x3, &x3, &v)
	feSub(&x3, &x3, &v)
	feSub(&t, &v, &x3)
	feMul(&y3, &r, &t)
	feMul(&t, &p.y, &hhh)
	feSub(&y3, &y3, &t)
	feMul(&p.z, &p.z, &h)
	p.x, p.y = x3, y3
}

// double sets p = 2p (dbl-2009-l, a = 0).
func (p *jacobian) double() {
	if p.inf || p.y.isZero() {
		*p = jacobian{inf: true}
		return
	}
	var a, b, c, d, e, f, t fe
	feSquare(&a, &p.x)
	feSquare(&b, &p.y)
	feSquare(&c, &b)
	feAdd(&d, &p.x, &b)
	feSquare(&d, &d)
	feSub(&d, &d, &a)
	feSub(&d, &d, &c)
	feAdd(&d, &d, &d)
	feAdd(&e, &a, &a)
	feAdd(&e, &e, &a)
	feSquare(&f, &e)
	var x3, y3, z3 fe
	feSub(&x3, &f, &d)
	feSub(&x3, &x3, &d)
	feSub(&t, &d, &x3)
	feMul(&y3, &e, &t)
	feAdd(&c, &c, &c) // 2C
	feAdd(&c, &c, &c) // 4C
	feAdd(&c, &c, &c) // 8C
	feSub(&y3, &y3, &c)
	feMul(&z3, &p.y, &p.z)
	feAdd(&z3, &z3, &z3)
	p.x, p.y, p.z = x3, y3, z3
}

// toAffine returns p in affine form; ok is false for the point at infinity.
func (p *jacobian) toAffine() (a affine, ok bool) {
	if p.inf {
		return a, false
	}
	var zinv, zinv2 fe
	feInverse(&zinv, &p.z)
	feSquare(&zinv2, &zinv)
	feMul(&a.x, &p.x, &zinv2)
	feMul(&zinv2, &zinv2, &zinv)
	feMul(&a.y, &p.y, &zinv2)
	return a, true
}

// onCurve reports whether y² = x³ + 7.
func (a *affine) onCurve() bool {
	var y2, x3 fe
	feSquare(&y2, &a.y)
	feSquare(&x3, &a.x)
	feMul(&x3, &x3, &a.x)
	feAdd(&x3, &x3, &fe{7})
	return y2 == x3
}
