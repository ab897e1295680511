package io.kbench.cli;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Test certificates as PEM files: a CA, certificates it signs (for worker hosts, with IP and DNS subject
 * alternative names, or for coordinators as TLS clients), and unencrypted PKCS#8 keys — what an operator
 * makes with openssl (docs/operations.md).
 */
final class TestCertificates {
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    /** A certificate and its key, as files. */
    record Pem(Path cert, Path key) { }

    private final Path dir;
    private final String name;
    private final KeyPair caKeys;
    private final X509Certificate ca;
    private final Path caFile;

    private TestCertificates(Path dir, String name, KeyPair caKeys, X509Certificate ca, Path caFile) {
        this.dir = dir;
        this.name = name;
        this.caKeys = caKeys;
        this.ca = ca;
        this.caFile = caFile;
    }

    /** A new CA called {@code name}, its certificate written to {@code dir/name-ca.pem}. */
    static TestCertificates authority(Path dir, String name) throws Exception {
        KeyPair keys = keyPair();
        X500Name subject = new X500Name("CN=" + name + " test CA");
        X509v3CertificateBuilder b = builder(subject, subject, keys);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        X509Certificate ca = sign(b, keys);
        Path file = dir.resolve(name + "-ca.pem");
        Files.writeString(file, pem(ca));
        return new TestCertificates(dir, name, keys, ca, file);
    }

    Path caFile() {
        return caFile;
    }

    /** A certificate for {@code cn}, valid for the given IP addresses and DNS names (a server), signed here. */
    Pem issue(String cn, List<String> ips, List<String> dnsNames) throws Exception {
        KeyPair keys = keyPair();
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(ca, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))),
                new X500Name("CN=" + cn), keys.getPublic());
        List<GeneralName> names = new ArrayList<>();
        ips.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
        dnsNames.forEach(d -> names.add(new GeneralName(GeneralName.dNSName, d)));
        if (!names.isEmpty()) {
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(new GeneralName[0])));
        }
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        X509Certificate cert = sign(b, caKeys);
        Path certFile = dir.resolve(name + "-" + cn + ".pem");
        Path keyFile = dir.resolve(name + "-" + cn + ".key");
        Files.writeString(certFile, pem(cert));
        Files.writeString(keyFile, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        return new Pem(certFile, keyFile);
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                keys.getPublic());
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    private static String pem(X509Certificate cert) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(cert);
        }
        return s.toString();
    }
}
