package io.troupe.server.tenant;

import java.security.Principal;
import java.security.cert.Certificate;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.security.auth.x500.X500Principal;

/**
 * A hand-written {@link SSLSession} whose peer is a given subject, or that has no verified peer (a TLS
 * connection without a client certificate): what the authenticator reads of a real one.
 *
 * <p><b>Threading:</b> immutable.
 */
final class PeerSession implements SSLSession {

    private final X500Principal peer;

    /** @param subject the client certificate's subject, or {@code null} for no client certificate */
    PeerSession(String subject) {
        this.peer = subject == null ? null : new X500Principal(subject);
    }

    @Override
    public Principal getPeerPrincipal() throws SSLPeerUnverifiedException {
        if (peer == null) {
            throw new SSLPeerUnverifiedException("no client certificate");
        }
        return peer;
    }

    @Override
    public Certificate[] getPeerCertificates() throws SSLPeerUnverifiedException {
        throw new SSLPeerUnverifiedException("not kept by this stub");
    }

    @Override
    public byte[] getId() {
        return new byte[0];
    }

    @Override
    public SSLSessionContext getSessionContext() {
        return null;
    }

    @Override
    public long getCreationTime() {
        return 0;
    }

    @Override
    public long getLastAccessedTime() {
        return 0;
    }

    @Override
    public void invalidate() {
    }

    @Override
    public boolean isValid() {
        return true;
    }

    @Override
    public void putValue(String name, Object value) {
    }

    @Override
    public Object getValue(String name) {
        return null;
    }

    @Override
    public void removeValue(String name) {
    }

    @Override
    public String[] getValueNames() {
        return new String[0];
    }

    @Override
    public Certificate[] getLocalCertificates() {
        return null;
    }

    @Override
    public Principal getLocalPrincipal() {
        return null;
    }

    @Override
    public String getCipherSuite() {
        return "TLS_AES_128_GCM_SHA256";
    }

    @Override
    public String getProtocol() {
        return "TLSv1.3";
    }

    @Override
    public String getPeerHost() {
        return "127.0.0.1";
    }

    @Override
    public int getPeerPort() {
        return 50_000;
    }

    @Override
    public int getPacketBufferSize() {
        return 16_709;
    }

    @Override
    public int getApplicationBufferSize() {
        return 16_384;
    }
}
