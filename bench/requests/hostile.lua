-- wrk: junk session, flash and lang cookies, random query strings and random
-- unknown addresses, in turn (bench/run.sh's hostile load, bench/memory.sh).
counter = 0
pages = { "/", "/voice-sms", "/sw/internet-overview", "/news-events" }
request = function()
  counter = counter + 1
  local junk = counter .. "-" .. math.random(1e9)
  local page = pages[counter % #pages + 1]
  local kind = counter % 3
  if kind == 0 then
    return wrk.format("GET", page, { ["Cookie"] = "session=" .. junk .. "; flash=" .. junk .. "; lang=" .. junk })
  elseif kind == 1 then
    return wrk.format("GET", page .. "?utm_source=" .. junk .. "&" .. junk .. "=1")
  else
    return wrk.format("GET", "/no-such-page/" .. junk)
  end
end
