package io.respsql.pgwire;

import io.respsql.config.ServerConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The start-up warning that the PostgreSQL listener is plaintext where the configuration expects otherwise. */
class PgServerTest {
    @Test
    void warnsWhenRespIsTlsOnlyOrThePasswordGoesInClearText() {
        assertNull(PgServer.plaintextWarning(new ServerConfig().port(6380)));
        assertNull(PgServer.plaintextWarning(new ServerConfig().port(6380).tlsPort(6390)), "plain RESP too: nothing new");
        assertNull(PgServer.plaintextWarning(new ServerConfig().requirePass("s")), "SCRAM never sends the password");
        String tlsOnly = PgServer.plaintextWarning(new ServerConfig().port(0).tlsPort(6390));
        assertTrue(tlsOnly != null && tlsOnly.contains("plaintext") && tlsOnly.contains("TLS-only"), tlsOnly);
        String clear = PgServer.plaintextWarning(new ServerConfig().requirePass("s").pgAuth("password"));
        assertTrue(clear != null && clear.contains("clear text") && clear.contains("scram-sha-256"), clear);
    }

    @Test
    void pgTlsRequiredSilencesTheWarningAndOfferedTlsNamesIt() {
        ServerConfig offered = new ServerConfig().port(0).tlsPort(6390).pgPort(5433)
                .tls("tls-cert-file", "s.crt").tls("tls-key-file", "s.key");
        String w = PgServer.plaintextWarning(offered);
        assertTrue(w != null && w.contains("offers TLS") && w.contains("pg-tls-required yes"), w);
        assertNull(PgServer.plaintextWarning(offered.pgTlsRequired(true)), "every pg session is encrypted");
        assertNull(PgServer.plaintextWarning(new ServerConfig().requirePass("s").pgAuth("password").pgPort(5433)
                .tls("tls-cert-file", "s.crt").tls("tls-key-file", "s.key").pgTlsRequired(true)));
    }
}
