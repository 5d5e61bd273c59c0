CREATE TABLE albums ( -- Returned by GET /albums/{id}, GET /artists/{id}/albums, GET /artists/{id}/top-tracks
  album_type TEXT, -- The type of the album.; one of: album, single, compilation
  external_ids_ean TEXT, -- external_ids: [International Article Number](http://en.wikipedia.org/wiki/International_Article_Number_%28EAN%29)
  external_ids_isrc TEXT, -- external_ids: [International Standard Recording Code](http://en.wikipedia.org/wiki/International_Standard_Recording_Code)
  external_ids_upc TEXT, -- external_ids: [Universal Product Code](http://en.wikipedia.org/wiki/Universal_Product_Code)
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the album.
  label TEXT, -- The label associated with the album.
  name TEXT, -- The name of the album. In case of an album takedown, the value may be an empty string.
  popularity INTEGER, -- The popularity of the album. The value will be between 0 and 100, with 100 being the most popular.
  release_date TEXT, -- The date the album was first released.
  release_date_precision TEXT, -- The precision with which `release_date` value is known.; one of: year, month, day
  restrictions_reason TEXT, -- restrictions: The reason for the restriction. Albums may be restricted if the content is not available in a given market, to the user's subscription type, or w…; one of: market, product, explicit
  total_tracks INTEGER, -- The number of tracks in the album.
  type TEXT, -- The object type.; one of: album
  tracks_limit INTEGER, -- tracks: The maximum number of items in the response (as set in the query or by default).
  tracks_offset INTEGER, -- tracks: The offset of the items returned (as set in the query or by default)
  tracks_total INTEGER, -- tracks: The total number of items available to return.
  album_group TEXT -- The field is present when getting an artist's albums. Compare to album_type this field represents relationship between the artist and the album.; one of: album, single, compilation, appears_on
);

CREATE TABLE artists ( -- Returned by GET /albums/{id}, GET /albums/{id}/tracks, GET /artists/{id}
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  followers_total INTEGER, -- followers: The total number of followers.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the artist.
  name TEXT, -- The name of the artist.
  popularity INTEGER, -- The popularity of the artist. The value will be between 0 and 100, with 100 being the most popular. The artist's popularity is calculated from the popularity o…
  type TEXT -- The object type.; one of: artist
);

CREATE TABLE audiobooks ( -- Returned by GET /search
  description TEXT, -- A description of the audiobook. HTML tags are stripped away from this field, use `html_description` field in case HTML tags are needed.
  edition TEXT, -- The edition of the audiobook.
  explicit INTEGER, -- Whether or not the audiobook has explicit content (true = yes it does; false = no it does not OR unknown).; boolean 0/1
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  html_description TEXT, -- A description of the audiobook. This field may contain HTML tags.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the audiobook.
  media_type TEXT, -- The media type of the audiobook.
  name TEXT, -- The name of the audiobook.
  publisher TEXT, -- The publisher of the audiobook.
  total_chapters INTEGER, -- The number of chapters in this audiobook.
  type TEXT -- The object type.; one of: audiobook
);

CREATE TABLE devices ( -- Returned by GET /me/player, GET /me/player/currently-playing, GET /me/player/devices
  id TEXT PRIMARY KEY, -- The device ID.
  is_active INTEGER, -- If this device is the currently active device.; boolean 0/1
  is_private_session INTEGER, -- If this device is currently in a private session.; boolean 0/1
  is_restricted INTEGER, -- Whether controlling this device is restricted. At present if this is "true" then no Web API commands will be accepted by this device.; boolean 0/1
  name TEXT, -- A human-readable name for the device. Some devices have a name that the user can configure (e.g. \"Loudest speaker\") and some devices have a generic name asso…
  type TEXT, -- Device type, such as "computer", "smartphone" or "speaker".
  volume_percent INTEGER -- The current volume in percent.
);

CREATE TABLE linked_tracks ( -- Returned by GET /albums/{id}, GET /albums/{id}/tracks
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the track.
  type TEXT -- The object type: "track".
);

CREATE TABLE tracks ( -- Returned by GET /albums/{id}, GET /albums/{id}/tracks, GET /artists/{id}/top-tracks
  disc_number INTEGER, -- The disc number (usually `1` unless the album consists of more than one disc).
  duration_ms INTEGER, -- The track length in milliseconds.
  explicit INTEGER, -- Whether or not the track has explicit lyrics ( `true` = yes it does; `false` = no it does not OR unknown).; boolean 0/1
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the track.
  is_local INTEGER, -- Whether or not the track is from a local file.; boolean 0/1
  is_playable INTEGER, -- Part of the response when [Track Relinking](/documentation/general/guides/track-relinking-guide/) is applied. If `true`, the track is playable in the given mar…; boolean 0/1
  linked_from_id TEXT REFERENCES linked_tracks(id), -- The linked_from (linked_tracks.id)
  name TEXT, -- The name of the track.
  preview_url TEXT, -- A URL to a 30 second preview (MP3 format) of the track.
  restrictions_reason TEXT, -- restrictions: The reason for the restriction. Supported values: - `market` - The content item is not available in the given market. - `product` - The content i…
  track_number INTEGER, -- The number of the track. If an album has several discs, the track number is the number on the specified disc.
  type TEXT, -- The object type: "track".
  album_id TEXT REFERENCES albums(id), -- The album (albums.id)
  external_ids_ean TEXT, -- external_ids: [International Article Number](http://en.wikipedia.org/wiki/International_Article_Number_%28EAN%29)
  external_ids_isrc TEXT, -- external_ids: [International Standard Recording Code](http://en.wikipedia.org/wiki/International_Standard_Recording_Code)
  external_ids_upc TEXT, -- external_ids: [Universal Product Code](http://en.wikipedia.org/wiki/Universal_Product_Code)
  popularity INTEGER -- The popularity of the track. The value will be between 0 and 100, with 100 being the most popular.<br/>The popularity of a track is a value between 0 and 100, …
);

CREATE TABLE currently_playing_contexts ( -- Returned by GET /me/player, GET /me/player/currently-playing
  actions_interrupting_playback INTEGER, -- actions: Interrupting playback. Optional field.; boolean 0/1
  actions_pausing INTEGER, -- actions: Pausing. Optional field.; boolean 0/1
  actions_resuming INTEGER, -- actions: Resuming. Optional field.; boolean 0/1
  actions_seeking INTEGER, -- actions: Seeking playback location. Optional field.; boolean 0/1
  actions_skipping_next INTEGER, -- actions: Skipping to the next context. Optional field.; boolean 0/1
  actions_skipping_prev INTEGER, -- actions: Skipping to the previous context. Optional field.; boolean 0/1
  actions_toggling_repeat_context INTEGER, -- actions: Toggling repeat context flag. Optional field.; boolean 0/1
  actions_toggling_repeat_track INTEGER, -- actions: Toggling repeat track flag. Optional field.; boolean 0/1
  actions_toggling_shuffle INTEGER, -- actions: Toggling shuffle flag. Optional field.; boolean 0/1
  actions_transferring_playback INTEGER, -- actions: Transfering playback between devices. Optional field.; boolean 0/1
  context_type TEXT, -- context: The object type, e.g. "artist", "playlist", "album", "show".
  currently_playing_type TEXT, -- The object type of the currently playing item. Can be one of `track`, `episode`, `ad` or `unknown`.
  device_id TEXT REFERENCES devices(id), -- The device (devices.id)
  is_playing INTEGER, -- If something is currently playing, return `true`.; boolean 0/1
  item_id TEXT REFERENCES tracks(id), -- The item (tracks.id)
  progress_ms INTEGER, -- Progress into the currently playing track or episode. Can be `null`.
  repeat_state TEXT, -- off, track, context
  shuffle_state INTEGER, -- If shuffle is on or off.; boolean 0/1
  timestamp INTEGER -- Unix Millisecond Timestamp when data was fetched.
);

CREATE TABLE cursors ( -- Returned by GET /me/following, GET /me/player/recently-played
  "after" TEXT, -- The cursor to use as key to find the next page of items.
  "before" TEXT -- The cursor to use as key to find the previous page of items.
);

CREATE TABLE episodes ( -- Returned by GET /search
  audio_preview_url TEXT, -- A URL to a 30 second preview (MP3 format) of the episode. `null` if not available.
  description TEXT, -- A description of the episode. HTML tags are stripped away from this field, use `html_description` field in case HTML tags are needed.
  duration_ms INTEGER, -- The episode length in milliseconds.
  explicit INTEGER, -- Whether or not the episode has explicit content (true = yes it does; false = no it does not OR unknown).; boolean 0/1
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  html_description TEXT, -- A description of the episode. This field may contain HTML tags.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the episode.
  is_externally_hosted INTEGER, -- True if the episode is hosted outside of Spotify's CDN.; boolean 0/1
  is_playable INTEGER, -- True if the episode is playable in the given market. Otherwise false.; boolean 0/1
  language TEXT, -- The language used in the episode, identified by a [ISO 639](https://en.wikipedia.org/wiki/ISO_639) code. This field is deprecated and might be removed in the f…
  name TEXT, -- The name of the episode.
  release_date TEXT, -- The date the episode was first released, for example `"1981-12-15"`. Depending on the precision, it might be shown as `"1981"` or `"1981-12"`.
  release_date_precision TEXT, -- The precision with which `release_date` value is known.; one of: year, month, day
  restrictions_reason TEXT, -- restrictions: The reason for the restriction. Supported values: - `market` - The content item is not available in the given market. - `product` - The content i…
  resume_point_fully_played INTEGER, -- resume_point: Whether or not the episode has been fully played by the user.; boolean 0/1
  resume_point_resume_position_ms INTEGER, -- resume_point: The user's most recent position in the episode in milliseconds.
  type TEXT -- The object type.; one of: episode
);

CREATE TABLE playlist_owners ( -- Returned by GET /me/playlists, GET /playlists/{playlist_id}, GET /search
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  followers_total INTEGER, -- followers: The total number of followers.
  id TEXT PRIMARY KEY, -- The [Spotify user ID](/documentation/web-api/#spotify-uris-and-ids) for this user.
  type TEXT, -- The object type.; one of: user
  display_name TEXT -- The name displayed on the user's profile. `null` if not available.
);

CREATE TABLE playlist_users ( -- Returned by GET /playlists/{playlist_id}, GET /playlists/{playlist_id}/tracks
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  followers_total INTEGER, -- followers: The total number of followers.
  id TEXT PRIMARY KEY, -- The [Spotify user ID](/documentation/web-api/#spotify-uris-and-ids) for this user.
  type TEXT -- The object type.; one of: user
);

CREATE TABLE playlist_tracks ( -- Returned by GET /playlists/{playlist_id}/tracks
  added_at TEXT, -- The date and time the track or episode was added. _**Note**: some very old playlists may return `null` in this field._; format: date-time
  added_by_id TEXT REFERENCES playlist_users(id), -- The added_by (playlist_users.id)
  is_local INTEGER, -- Whether this track or episode is a [local file](https://developer.spotify.com/web-api/local-files-spotify-playlists/) or not.; boolean 0/1
  track_id TEXT REFERENCES tracks(id) -- The track (tracks.id)
);

CREATE TABLE playlists ( -- Returned by GET /me/playlists, GET /playlists/{playlist_id}, GET /search
  collaborative INTEGER, -- `true` if the owner allows other users to modify the playlist.; boolean 0/1
  description TEXT, -- The playlist description. _Only returned for modified, verified playlists, otherwise_ `null`.
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the playlist.
  name TEXT, -- The name of the playlist.
  owner_id TEXT REFERENCES playlist_owners(id), -- The owner (playlist_owners.id)
  public INTEGER, -- The playlist's public/private status: `true` the playlist is public, `false` the playlist is private, `null` the playlist status is not relevant. For more abou…; boolean 0/1
  snapshot_id TEXT, -- The version identifier for the current playlist. Can be supplied in other requests to target a specific playlist version
  tracks_total INTEGER, -- tracks: Number of tracks in the playlist.
  type TEXT, -- The object type: "playlist"
  followers_total INTEGER -- followers: The total number of followers.
);

CREATE TABLE recommendation_seeds ( -- Returned by GET /recommendations
  afterFilteringSize INTEGER, -- The number of tracks available after min\_\* and max\_\* filters have been applied.
  afterRelinkingSize INTEGER, -- The number of tracks available after relinking for regional availability.
  id TEXT PRIMARY KEY, -- The id used to select this seed. This will be the same as the string used in the `seed_artists`, `seed_tracks` or `seed_genres` parameter.
  initialPoolSize INTEGER, -- The number of recommended tracks available for this seed.
  type TEXT -- The entity type of this seed. One of `artist`, `track` or `genre`.
);

CREATE TABLE shows ( -- Returned by GET /search
  description TEXT, -- A description of the show. HTML tags are stripped away from this field, use `html_description` field in case HTML tags are needed.
  explicit INTEGER, -- Whether or not the show has explicit content (true = yes it does; false = no it does not OR unknown).; boolean 0/1
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  html_description TEXT, -- A description of the show. This field may contain HTML tags.
  id TEXT PRIMARY KEY, -- The [Spotify ID](/documentation/web-api/#spotify-uris-and-ids) for the show.
  is_externally_hosted INTEGER, -- True if all of the shows episodes are hosted outside of Spotify's CDN. This field might be `null` in some cases.; boolean 0/1
  media_type TEXT, -- The media type of the show.
  name TEXT, -- The name of the episode.
  publisher TEXT, -- The publisher of the show.
  total_episodes INTEGER, -- The total number of episodes in the show.
  type TEXT -- The object type.; one of: show
);

CREATE TABLE users ( -- Returned by GET /me
  country TEXT, -- The country of the user, as set in the user's account profile. An [ISO 3166-1 alpha-2 country code](http://en.wikipedia.org/wiki/ISO_3166-1_alpha-2). _This fie…
  display_name TEXT, -- The name displayed on the user's profile. `null` if not available.
  email TEXT, -- The user's email address, as entered by the user when creating their account. _**Important!** This email address is unverified; there is no proof that it actua…
  explicit_content_filter_enabled INTEGER, -- explicit_content: When `true`, indicates that explicit content should not be played.; boolean 0/1
  explicit_content_filter_locked INTEGER, -- explicit_content: When `true`, indicates that the explicit content setting is locked and can't be changed by the user.; boolean 0/1
  external_urls_spotify TEXT, -- external_urls: The [Spotify URL](/documentation/web-api/#spotify-uris-and-ids) for the object.
  followers_total INTEGER, -- followers: The total number of followers.
  id TEXT PRIMARY KEY, -- The [Spotify user ID](/documentation/web-api/#spotify-uris-and-ids) for the user.
  product TEXT, -- The user's Spotify subscription level: "premium", "free", etc. (The subscription level "open" can be considered the same as "free".) _This field is only availa…
  type TEXT -- The object type: "user"
);
