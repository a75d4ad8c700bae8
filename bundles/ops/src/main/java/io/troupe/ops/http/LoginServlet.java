package io.troupe.ops.http;

import java.io.IOException;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code POST /console/login} with the form field {@code token} (or {@code Authorization: Bearer <token>}):
 * when the token is right, sets the console's cookie {@value AccessPolicy#COOKIE} ({@code HttpOnly},
 * {@code SameSite=Strict}, {@code Path=/}, {@code Secure} over HTTPS; a session cookie, gone when the browser
 * closes) and answers {@code 303} to {@code /console} for a form, {@code 200 {"status":"ok"}} otherwise.
 * A wrong token gets {@code 401} and the JSON error body. {@code POST /console/logout} clears the cookie.
 *
 * <p>The cookie's value is derived from the token ({@link AdminToken#cookieValue()}): it stops working as
 * soon as the token file holds another token.
 *
 * <p><b>Threading:</b> the container's threads, many at once; stateless.
 */
final class LoginServlet extends HttpServlet {

    static final String LOGIN_PATH = AccessPolicy.LOGIN;
    static final String LOGOUT_PATH = "/console/logout";
    private static final long serialVersionUID = 1L;
    private static final String FORM = "application/x-www-form-urlencoded";

    private final transient Supplier<AdminTokenFile> tokenFile;

    LoginServlet(Supplier<AdminTokenFile> tokenFile) {
        this.tokenFile = tokenFile;
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (LOGOUT_PATH.equals(TroupeContext.pathOf(request))) {
            response.addHeader("Set-Cookie", cookie("", request.isSecure(), 0));
            JsonResponse.send(response, HttpServletResponse.SC_OK, ok());
            return;
        }
        String given = AccessPolicy.bearer(request.getHeader("Authorization"));
        if (given == null) {
            given = request.getParameter("token");
        }
        Optional<AdminToken> token = tokenFile.get().current();
        if (token.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"troupe\"");
            JsonResponse.error(response, HttpServletResponse.SC_UNAUTHORIZED, "unauthorized",
                    "the admin token file holds no usable token (see the log)");
            return;
        }
        if (given == null || !token.get().matches(given.strip())) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"troupe\"");
            JsonResponse.error(response, HttpServletResponse.SC_UNAUTHORIZED, "unauthorized",
                    given == null ? "no token given (form field token)" : "wrong admin token");
            return;
        }
        response.addHeader("Set-Cookie", cookie(token.get().cookieValue(), request.isSecure(), -1));
        String type = request.getContentType();
        if (type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith(FORM)) {
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader("Location", "/console");
            return;
        }
        JsonResponse.send(response, HttpServletResponse.SC_OK, ok());
    }

    private static JsonResponse.Body ok() {
        return json -> {
            json.writeStartObject();
            json.writeStringField("status", "ok");
            json.writeEndObject();
        };
    }

    /** The Set-Cookie value; {@code maxAge} 0 deletes, negative makes a session cookie. */
    static String cookie(String value, boolean secure, int maxAge) {
        StringBuilder header = new StringBuilder(AccessPolicy.COOKIE).append('=').append(value)
                .append("; Path=/; HttpOnly; SameSite=Strict");
        if (maxAge >= 0) {
            header.append("; Max-Age=").append(maxAge);
        }
        if (secure) {
            header.append("; Secure");
        }
        return header.toString();
    }
}
