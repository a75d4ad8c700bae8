/**
 * Reading the server's and the tenants' configuration values as ConfigAdmin delivers them.
 *
 * <p><b>Threading:</b> stateless helpers; any thread.
 */
package io.troupe.server.config;
