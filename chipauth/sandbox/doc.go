// Package sandbox issues test ePassport documents: a test CSCA, Document Signers
// under it, DG1 files and EF.SOD security objects signed with any algorithm
// chipauth accepts (RSA PKCS#1 v1.5 and PSS; ECDSA over NIST P-256/384/521 and
// brainpoolP256r1/P384r1/P512r1, with named or explicit curve parameters).
//
// It exists for tests and for the reference server's SANDBOX environment, whose
// trust store holds a CSCA generated here. Nothing it issues is trusted by a
// production trust store, and its keys are held in memory by the caller.
//
// Certificates are written by this package rather than crypto/x509, which cannot
// encode brainpool keys or explicit EC parameters.
package sandbox
