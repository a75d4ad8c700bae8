package io.troupe.api.net;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Creates the handler of a newly accepted connection.
 *
 * <p><b>Threading:</b> called on the connection's IO loop.
 */
@ConsumerType
@FunctionalInterface
public interface ConnectionHandlerFactory {

    ConnectionHandler create(Connection connection);
}
