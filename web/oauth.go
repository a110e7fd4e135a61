package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Identity through Discord's OAuth2: the page's SDK gets a code from the
// Discord client (authorize, scope identify); the server exchanges it
// with the client secret for an access token and reads the user with it.
// The token is used for that one request, handed to the page once (for
// the SDK's authenticate) and never kept or logged.

// errAuth: Discord did not confirm the user (a bad or used code).
var errAuth = errors.New("discord refused the authorisation")

// discordUser is the user /users/@me describes.
type discordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
	Locale     string `json:"locale"`
}

// name is how the user is shown: the global name, else the username.
func (u discordUser) name() string {
	if strings.TrimSpace(u.GlobalName) != "" {
		return u.GlobalName
	}
	return u.Username
}

// exchange trades an authorisation code for an access token
// (POST /oauth2/token, form-encoded: Discord accepts nothing else there).
func (s *Server) exchange(ctx context.Context, code string) (string, error) {
	form := url.Values{
		"client_id":     {s.clientID()},
		"client_secret": {s.opts.ClientSecret},
		"grant_type":    {"authorization_code"},
		"code":          {code},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.api.String()+"oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	var out struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		Scope       string `json:"scope"`
	}
	if err := s.do(req, &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" {
		return "", fmt.Errorf("%w: no access token in the answer", errAuth)
	}
	return out.AccessToken, nil
}

// me reads the user an access token belongs to (GET /users/@me, Bearer).
func (s *Server) me(ctx context.Context, token string) (discordUser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.api.String()+"users/@me", nil)
	if err != nil {
		return discordUser{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	var u discordUser
	if err := s.do(req, &u); err != nil {
		return discordUser{}, err
	}
	if u.ID == "" {
		return discordUser{}, fmt.Errorf("%w: no user in the answer", errAuth)
	}
	return u, nil
}

// do sends an OAuth request and decodes its JSON answer. A 4xx is
// errAuth; the error never repeats the request's secrets.
func (s *Server) do(req *http.Request, out any) error {
	resp, err := s.opts.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, unwrapURLError(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
			Code    int    `json:"code"`
		}
		json.Unmarshal(body, &e)
		return fmt.Errorf("%w: %s %s: %d %s%s", errAuth, req.Method, req.URL.Path, resp.StatusCode, e.Error, e.Message)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: Discord answered %d", req.Method, req.URL.Path, resp.StatusCode)
	}
	return json.Unmarshal(body, out)
}

// unwrapURLError drops the URL from a transport error (it may carry a
// query): what remains says what failed.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
