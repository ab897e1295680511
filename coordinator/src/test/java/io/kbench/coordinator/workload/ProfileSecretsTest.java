package io.kbench.coordinator.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProfileSecretsTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "common.sasl.jaas.config, true",
        "SASL.JAAS.CONFIG, true",
        "producer.ssl.keystore.key, true",
        "common.ssl.truststore.certificates, true",
        "common.ssl.keystore.certificate.chain, true",
        "common.sasl.oauthbearer.assertion.private.key.passphrase, true",
        "common.sasl.oauthbearer.client.credentials.client.secret, true",
        "common.basic.auth.user.info, true",
        "common.schema.registry.basic.auth.user.info, true",
        "common.bearer.auth.token, true",
        "common.api.key, true",
        "common.apikey, true",
        "producer.acks, false",
        "producer.batch.size, false",
        "common.security.protocol, false",
        "common.ssl.truststore.location, false",
        "common.ssl.keystore.type, false",
        "common.sasl.mechanism, false",
        "topic.min.insync.replicas, false",
        "bootstrap.servers, false",
    })
    void shouldTellSecretKeysFromOthers(String key, boolean secret) {
        assertEquals(secret, Profile.isSecret(key), key);
    }
}
