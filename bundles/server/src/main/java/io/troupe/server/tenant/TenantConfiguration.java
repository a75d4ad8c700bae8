package io.troupe.server.tenant;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

import io.troupe.api.TenantPolicy;
import io.troupe.server.credential.TenantToken;

/**
 * One tenant's configuration, a factory configuration of {@value TenantConfig#FACTORY_PID}
 * ({@code etc/io.troupe.tenant-<id>.cfg} in the distribution): every key with its type, default,
 * bounds and description. {@link TenantConfig} checks each configuration against the metatype
 * document bnd writes from this type and refuses the whole configuration when a value is bad (the
 * tenant keeps its previous configuration).
 *
 * <p>Keys of later features are added here, with their bounds. Checks the metatype cannot express
 * ({@code maxFrameBytes} is 0 or at least 1024, the handler list's names) are {@link TenantConfig}'s.
 *
 * <p><b>Threading:</b> the instances are immutable views.
 */
@ObjectClassDefinition(name = "Troupe tenant", factoryPid = TenantConfig.FACTORY_PID,
        description = "A tenant of the message server: its credentials and limits. One file per tenant, "
                + "io.troupe.tenant-<id>.cfg; adding, changing or deleting one applies while Troupe runs.")
public @interface TenantConfiguration {

    @AttributeDefinition(name = "Token hash", required = false,
            description = "The salted PBKDF2 hash of the secret clients send in HELLO: "
                    + "pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>, as troupe:tenant-add and "
                    + "troupe:tenant-rotate-token write it.")
    String tokenHash() default "";

    @AttributeDefinition(name = "Token (plaintext, migrated)", type = AttributeType.PASSWORD, required = false,
            description = "A plaintext token, at least " + TenantToken.MIN_LENGTH + " characters; surrounding "
                    + "blanks are ignored. Accepted once: the file is rewritten with its tokenHash instead. Never "
                    + "logged.")
    String token() default "";

    @AttributeDefinition(name = "Client certificate subject", required = false,
            description = "An X.500 name (e.g. CN=client,O=Example): the tenant's sessions must come over TLS "
                    + "with a client certificate of this subject (compared in canonical form), in addition to "
                    + "the token when tokenHash is set, instead of it otherwise.")
    String certificateSubject() default "";

    @AttributeDefinition(name = "Connections", min = "0", max = "2147483647",
            description = "Sessions the tenant may have open at once.")
    int maxConnections() default TenantConfig.DEFAULT_MAX_CONNECTIONS;

    @AttributeDefinition(name = "Requests per second", min = "0", max = "" + TenantLimits.MAX_REQUESTS_PER_SECOND,
            description = "REQUEST and SEND frames per second over all the tenant's connections; 0: unlimited. "
                    + "Over it the tenant's connections stop being read until the rate allows the next request.")
    int maxRequestsPerSecond() default 0;

    @AttributeDefinition(name = "Inbound bytes per second", min = "0", max = "" + TenantLimits.MAX_BYTES_PER_SECOND,
            description = "Bytes of frames received per second over all the tenant's connections; 0: unlimited. "
                    + "Over it the tenant's connections stop being read until the rate allows the next frame.")
    int maxBytesPerSecond() default 0;

    @AttributeDefinition(name = "Largest frame", min = "0", max = "268435456",
            description = "Bytes of the largest frame the tenant may send; 0: the server's maxFrameBytes. Either 0 or "
                    + "at least 1024; it can only lower the server's limit (a larger value applies as the server's).")
    int maxFrameBytes() default 0;

    @AttributeDefinition(name = "Weight", min = "1", max = "" + TenantPolicy.MAX_WEIGHT,
            description = "The tenant's share of the worker pool relative to other busy tenants, in worker time.")
    int weight() default 1;

    @AttributeDefinition(name = "Actors", min = "0", max = "2147483647",
            description = "Live actors the tenant may have (handlers and their children); 0: unlimited. A request "
                    + "that needs one more is answered ERROR tenant.limit.actors.")
    int maxActors() default 0;

    @AttributeDefinition(name = "Queued messages", min = "0", max = "2147483647",
            description = "Messages that may wait in all the tenant's mailboxes; 0: unlimited. At the limit the "
                    + "tenant's connections stop being read until the queue is down to three quarters of it.")
    int maxQueuedMessages() default 0;

    @AttributeDefinition(name = "Pending output bytes", min = "0", max = "2147483647",
            description = "Bytes of replies written for the tenant and not yet taken by its clients, over all its "
                    + "connections; 0: unlimited. Above it the tenant's connections stop being read until the total "
                    + "is down to half of it. Worst-case memory for pending output: tenants x this + the "
                    + "replies of requests accepted before it was reached.")
    int maxPendingOutputBytes() default TenantLimits.DEFAULT_MAX_PENDING_OUTPUT_BYTES;

    @AttributeDefinition(name = "Handlers", required = false,
            description = "Comma-separated handler names the tenant may call; empty: all. Any other name is "
                    + "answered no.handler, as a name nobody serves.")
    String handlers() default "";

    @AttributeDefinition(name = "Tenant id", required = false, min = "1", max = "64",
            description = "The tenant id, for configurations made without a file (a file's name gives it): "
                    + "1 to 64 of A-Z a-z 0-9 . _ -")
    String tenant() default "";
}
