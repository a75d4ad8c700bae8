package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The HTTP endpoint of a test installation: its configuration file ({@code etc/io.troupe.http.cfg}) and
 * requests to it over real sockets with the JDK's HTTP client (no redirects followed, bounded timeouts).
 *
 * <p><b>Threading:</b> the test thread; the client is thread-safe.
 */
final class HttpEndpoint {

    private static final Duration CONNECT = Duration.ofSeconds(2);
    private static final Duration REQUEST = Duration.ofSeconds(10);

    private final Path home;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    HttpEndpoint(Path home) {
        this.home = home;
    }

    /** The configuration file. */
    Path configFile() {
        return home.resolve("etc/io.troupe.http.cfg");
    }

    /** The port of the file's {@code port = N} line (a free one of its own in a {@link TestInstallation}). */
    int port() throws IOException {
        java.util.regex.Matcher line = java.util.regex.Pattern.compile("(?m)^port = ([0-9]+)$")
                .matcher(Files.readString(configFile()));
        assertTrue(line.find(), "etc/io.troupe.http.cfg has no line 'port = N'");
        return Integer.parseInt(line.group(1));
    }

    /** Replaces the file's {@code host}, {@code port} and {@code allowPlaintext} lines with {@code lines}. */
    void configure(String lines) throws IOException {
        String base = Files.readString(configFile()).replaceAll("(?m)^(host|port|allowPlaintext) = .*\n", "");
        Files.writeString(configFile(), base + lines);
    }

    /** The admin token of the installation's token file. */
    String token() throws IOException {
        return Files.readString(home.resolve("etc/admin.token")).strip();
    }

    /** {@code GET http://host:port/path} with the given headers (name, value, name, value...). */
    HttpResponse<String> get(String host, int port, String path, String... headers)
            throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(host, port, path)).GET(), headers);
    }

    /** {@code POST http://host:port/path} with a form body and the given headers. */
    HttpResponse<String> postForm(String host, int port, String path, String form, String... headers)
            throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(host, port, path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8)), headers);
    }

    /** {@code method http://host:port/path} without a body, with the given headers. */
    HttpResponse<String> request(String method, String host, int port, String path, String... headers)
            throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(host, port, path)).method(method, HttpRequest.BodyPublishers.noBody()),
                headers);
    }

    /** Whether a TCP connection to {@code host:port} is accepted (within two seconds). */
    static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) CONNECT.toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request, String... headers)
            throws IOException, InterruptedException {
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return client.send(request.timeout(REQUEST).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String host, int port, String path) {
        String literal = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return URI.create("http://" + literal + ":" + port + path);
    }
}
