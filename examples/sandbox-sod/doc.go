// Command sandbox-sod issues a test passport chip read for the SANDBOX environment:
// an EF.SOD, a DG1 holding the MRZ of the flags and a stand-in DG2, signed by the
// sandbox Document Signer that the reference server keeps in its data directory,
// and prints the JSON body of POST /identity/chip-verify in seed 001's shape —
// {"sodBase64", "dataGroups": [{"number", "contentBase64"}, …],
// "livenessAttestationId", "liveFaceTemplate", "chipFaceTemplate"} — with -post it
// sends it.
//
//	sandbox-sod [-pki ./data | -new [-save DIR] [-csca-out FILE]]
//	    [-doc-number L898902C3] [-issuing-state UTO] [-nationality UTO] [-doc-type P]
//	    [-surname ERIKSSON] [-given-names "ANNA MARIA"] [-birth 1974-08-12]
//	    [-expiry YYYY-MM-DD] [-sex F|M|<] [-digest sha256|sha384|sha512]
//	    [-face-dim 128 [-face-mismatch]] [-liveness att_…]
//	    [-post http://127.0.0.1:8080 -token T]
//
// -pki reads sandbox-csca.pem and sandbox-ds.pem, as the server writes them at
// first start (chipauth/binding.LoadOrCreateSandboxPKI). -new makes a fresh CSCA
// and DS instead; a server trusts documents of that pair only once the CSCA
// (-csca-out) is in its trust directory, or when -save wrote the pair into its data
// directory before its first start.
//
// -face-dim adds a liveFaceTemplate and a chipFaceTemplate of that dimension, nearly
// identical (PA_FACE) or, with -face-mismatch, unrelated (face_mismatch); without it
// the binding is PA_ONLY. Without -liveness the body carries a placeholder to
// replace with the id of a LIVENESS attestation of the holder from the last 24
// hours.
//
// Exit status: 0 on success (and a 2xx answer with -post), 1 when the server
// refuses the request or cannot be reached, 2 for usage errors.
package main
