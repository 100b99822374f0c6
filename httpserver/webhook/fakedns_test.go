package webhook

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"strings"
)

// fakeResolver returns a resolver that answers A and AAAA queries from names, in memory,
// with no network: the names stand for hosts whose DNS an attacker controls.
func fakeResolver(names map[string]netip.Addr) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(context.Context, string, string) (net.Conn, error) {
			client, server := net.Pipe()
			go serveDNS(server, names)
			return client, nil
		},
	}
}

// serveDNS answers queries framed as over TCP (net.Pipe is a stream, so the Go resolver
// uses a two-byte length prefix) until the client hangs up.
func serveDNS(conn net.Conn, names map[string]netip.Addr) {
	defer conn.Close()
	for {
		var n [2]byte
		if _, err := io.ReadFull(conn, n[:]); err != nil {
			return
		}
		q := make([]byte, binary.BigEndian.Uint16(n[:]))
		if _, err := io.ReadFull(conn, q); err != nil {
			return
		}
		resp := dnsAnswer(q, names)
		if resp == nil {
			return
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(resp)))
		if _, err := conn.Write(append(out, resp...)); err != nil {
			return
		}
	}
}

// dnsAnswer builds the response to query q: the question echoed, and one answer when the
// name is known with an address of the asked family. Unknown names get NXDOMAIN.
func dnsAnswer(q []byte, names map[string]netip.Addr) []byte {
	if len(q) < 12 {
		return nil
	}
	var labels []string
	i := 12
	for i < len(q) && q[i] != 0 {
		l := int(q[i])
		if i+1+l > len(q) {
			return nil
		}
		labels = append(labels, string(q[i+1:i+1+l]))
		i += 1 + l
	}
	i++ // the root label
	if i+4 > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[i:])
	question := q[12 : i+4]
	addr, known := names[strings.ToLower(strings.Join(labels, "."))]

	var answer []byte
	switch {
	case known && qtype == 1 && addr.Is4():
		a := addr.As4()
		answer = answerRR(1, a[:])
	case known && qtype == 28 && addr.Is6():
		a := addr.As16()
		answer = answerRR(28, a[:])
	}
	flags := uint16(0x8580) // response, authoritative, recursion desired and available
	if !known {
		flags |= 3 // NXDOMAIN
	}
	resp := make([]byte, 12, 12+len(question)+len(answer))
	copy(resp, q[:2])
	binary.BigEndian.PutUint16(resp[2:], flags)
	binary.BigEndian.PutUint16(resp[4:], 1)
	if answer != nil {
		binary.BigEndian.PutUint16(resp[6:], 1)
	}
	resp = append(resp, question...)
	return append(resp, answer...)
}

func answerRR(qtype uint16, rdata []byte) []byte {
	rr := []byte{0xc0, 12} // pointer to the question's name
	rr = binary.BigEndian.AppendUint16(rr, qtype)
	rr = binary.BigEndian.AppendUint16(rr, 1)  // class IN
	rr = binary.BigEndian.AppendUint32(rr, 60) // TTL
	rr = binary.BigEndian.AppendUint16(rr, uint16(len(rdata)))
	return append(rr, rdata...)
}
