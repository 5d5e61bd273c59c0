CREATE TABLE collections ( -- Returned by GET /collection/{collection_id}, GET /search/collection
  id INTEGER PRIMARY KEY,
  name TEXT,
  overview TEXT,
  backdrop_path TEXT,
  adult INTEGER, -- boolean 0/1
  original_language TEXT,
  original_title TEXT,
  release_date TEXT,
  popularity REAL,
  title TEXT,
  video INTEGER, -- boolean 0/1
  vote_average REAL,
  vote_count INTEGER
);

CREATE TABLE companies ( -- Returned by GET /company/{company_id}, GET /search/company
  description TEXT,
  headquarters TEXT,
  homepage TEXT,
  id INTEGER PRIMARY KEY,
  logo_path TEXT,
  name TEXT,
  origin_country TEXT
);

CREATE TABLE persons ( -- Returned by GET /person/{person_id}, GET /search/person
  birthday TEXT,
  known_for_department TEXT,
  deathday TEXT,
  id INTEGER PRIMARY KEY,
  name TEXT,
  gender INTEGER,
  biography TEXT,
  popularity REAL,
  place_of_birth TEXT,
  profile_path TEXT,
  adult INTEGER, -- boolean 0/1
  imdb_id TEXT,
  homepage TEXT
);

CREATE TABLE credits ( -- Returned by GET /tv/{tv_id}/season/{season_number}/episode/{episode_number}/credits, GET /credit/{credit_id}, GET /tv/{tv_id}/season/{season_number}/credits
  character TEXT,
  credit_id TEXT,
  gender INTEGER,
  id INTEGER PRIMARY KEY,
  name TEXT,
  "order" INTEGER,
  profile_path TEXT,
  department TEXT,
  job TEXT,
  credit_type TEXT,
  media_id INTEGER,
  media_name TEXT,
  media_original_name TEXT,
  media_character TEXT,
  media_type TEXT,
  person_name TEXT,
  person_id INTEGER REFERENCES persons(id),
  original_name TEXT,
  cast_id INTEGER
);

CREATE TABLE crews ( -- Returned by GET /tv/{tv_id}/season/{season_number}
  id INTEGER PRIMARY KEY,
  credit_id TEXT REFERENCES credits(id),
  name TEXT,
  department TEXT,
  job TEXT,
  profile_path TEXT
);

CREATE TABLE episodes ( -- Returned by GET /tv/{tv_id}/season/{season_number}/episode/{episode_number}
  air_date TEXT, -- format: date
  episode_number INTEGER,
  name TEXT,
  overview TEXT,
  id INTEGER PRIMARY KEY,
  production_code TEXT,
  season_number INTEGER,
  still_path TEXT,
  vote_average REAL,
  vote_count INTEGER,
  credit_id TEXT REFERENCES credits(id),
  department TEXT,
  job TEXT,
  profile_path TEXT,
  character TEXT,
  "order" INTEGER
);

CREATE TABLE images ( -- Returned by GET /movie/{movie_id}/images, GET /network/{network_id}/images, GET /tv/{tv_id}/images
  aspect_ratio REAL,
  file_path TEXT,
  height INTEGER,
  iso_639_1 TEXT,
  vote_average INTEGER,
  vote_count INTEGER,
  width INTEGER,
  id TEXT PRIMARY KEY,
  file_type TEXT -- one of: .svg, .png
);

CREATE TABLE keywords ( -- Returned by GET /movie/{movie_id}/keywords, GET /tv/{tv_id}/keywords
  id INTEGER PRIMARY KEY,
  name TEXT
);

CREATE TABLE latests ( -- Returned by GET /tv/latest, GET /movie/latest
  backdrop_path TEXT,
  first_air_date TEXT,
  homepage TEXT,
  id INTEGER PRIMARY KEY,
  in_production INTEGER, -- boolean 0/1
  last_air_date TEXT,
  name TEXT,
  number_of_episodes INTEGER,
  number_of_seasons INTEGER,
  original_language TEXT,
  original_name TEXT,
  overview TEXT,
  popularity INTEGER,
  poster_path TEXT,
  status TEXT,
  type TEXT,
  vote_average REAL,
  vote_count INTEGER,
  air_date TEXT,
  episode_count INTEGER,
  season_number INTEGER,
  adult INTEGER, -- boolean 0/1
  budget INTEGER,
  imdb_id TEXT,
  original_title TEXT,
  release_date TEXT,
  revenue INTEGER,
  runtime INTEGER,
  tagline TEXT,
  title TEXT,
  video INTEGER -- boolean 0/1
);

CREATE TABLE lists ( -- Returned by GET /genre/tv/list, GET /genre/movie/list
  id INTEGER PRIMARY KEY,
  name TEXT
);

CREATE TABLE movie_credits ( -- Returned by GET /person/{person_id}/movie_credits
  character TEXT,
  credit_id TEXT REFERENCES credits(id),
  release_date TEXT,
  vote_count INTEGER,
  video INTEGER, -- boolean 0/1
  adult INTEGER, -- boolean 0/1
  vote_average INTEGER,
  title TEXT,
  original_language TEXT,
  original_title TEXT,
  popularity REAL,
  id INTEGER PRIMARY KEY,
  backdrop_path TEXT,
  overview TEXT,
  poster_path TEXT,
  department TEXT,
  job TEXT
);

CREATE TABLE movie_list_objects ( -- Returned by GET /search/movie, GET /discover/movie, GET /movie/upcoming
  poster_path TEXT,
  adult INTEGER, -- boolean 0/1
  overview TEXT,
  release_date TEXT,
  id INTEGER PRIMARY KEY,
  original_title TEXT,
  original_language TEXT,
  title TEXT,
  backdrop_path TEXT,
  popularity REAL,
  vote_count INTEGER,
  video INTEGER, -- boolean 0/1
  vote_average REAL
);

CREATE TABLE movie_list_results_object_with_media_types ( -- Returned by GET /search/person, GET /person/popular
  poster_path TEXT,
  adult INTEGER, -- boolean 0/1
  overview TEXT,
  release_date TEXT,
  original_title TEXT,
  id INTEGER PRIMARY KEY,
  media_type TEXT, -- one of: movie
  original_language TEXT,
  title TEXT,
  backdrop_path TEXT,
  popularity REAL,
  vote_count INTEGER,
  video INTEGER, -- boolean 0/1
  vote_average REAL
);

CREATE TABLE movies ( -- Returned by GET /movie/{movie_id}
  adult INTEGER, -- boolean 0/1
  backdrop_path TEXT,
  budget INTEGER,
  homepage TEXT,
  id INTEGER PRIMARY KEY,
  imdb_id TEXT,
  original_language TEXT,
  original_title TEXT,
  overview TEXT,
  popularity REAL,
  poster_path TEXT,
  release_date TEXT, -- format: date
  revenue INTEGER,
  runtime INTEGER,
  status TEXT, -- one of: Rumored, Planned, In Production, Post Production, Released, Canceled
  tagline TEXT,
  title TEXT,
  video INTEGER, -- boolean 0/1
  vote_average REAL,
  vote_count INTEGER,
  name TEXT,
  logo_path TEXT,
  origin_country TEXT
);

CREATE TABLE networks ( -- Returned by GET /network/{network_id}
  headquarters TEXT,
  homepage TEXT,
  id INTEGER PRIMARY KEY,
  name TEXT,
  origin_country TEXT
);

CREATE TABLE now_playings ( -- Returned by GET /movie/now_playing
  maximum TEXT, -- format: date
  minimum TEXT -- format: date
);

CREATE TABLE populars ( -- Returned by GET /person/popular
  profile_path TEXT,
  adult INTEGER, -- boolean 0/1
  id INTEGER PRIMARY KEY,
  name TEXT,
  popularity REAL
);

CREATE TABLE release_dates ( -- Returned by GET /movie/{movie_id}/release_dates
  certification TEXT,
  iso_639_1 TEXT,
  release_date TEXT,
  type INTEGER,
  note TEXT
);

CREATE TABLE reviews ( -- Returned by GET /movie/{movie_id}/reviews, GET /review/{review_id}, GET /tv/{tv_id}/reviews
  id TEXT PRIMARY KEY,
  author TEXT,
  content TEXT,
  iso_639_1 TEXT,
  media_id INTEGER,
  media_title TEXT,
  media_type TEXT
);

CREATE TABLE seasons ( -- Returned by GET /tv/{tv_id}/season/{season_number}
  _id TEXT,
  air_date TEXT,
  name TEXT,
  overview TEXT,
  id INTEGER PRIMARY KEY,
  poster_path TEXT,
  season_number INTEGER,
  episode_number INTEGER,
  production_code TEXT,
  still_path TEXT,
  vote_average REAL,
  vote_count INTEGER
);

CREATE TABLE tv_credits ( -- Returned by GET /person/{person_id}/tv_credits
  credit_id TEXT REFERENCES credits(id),
  original_name TEXT,
  id INTEGER PRIMARY KEY,
  character TEXT,
  name TEXT,
  poster_path TEXT,
  vote_count INTEGER,
  vote_average REAL,
  popularity REAL,
  episode_count INTEGER,
  original_language TEXT,
  first_air_date TEXT,
  backdrop_path TEXT,
  overview TEXT,
  department TEXT,
  job TEXT
);

CREATE TABLE tv_list_result_objects ( -- Returned by GET /tv/popular, GET /search/tv, GET /tv/on_the_air
  poster_path TEXT,
  popularity REAL,
  id INTEGER PRIMARY KEY,
  backdrop_path TEXT,
  vote_average REAL,
  overview TEXT,
  first_air_date TEXT,
  original_language TEXT,
  vote_count INTEGER,
  name TEXT,
  original_name TEXT
);

CREATE TABLE tvs ( -- Returned by GET /tv/{tv_id}
  backdrop_path TEXT,
  first_air_date TEXT,
  homepage TEXT,
  id INTEGER PRIMARY KEY,
  in_production INTEGER, -- boolean 0/1
  last_air_date TEXT,
  last_episode_to_air_air_date TEXT,
  last_episode_to_air_episode_number INTEGER,
  last_episode_to_air_id INTEGER,
  last_episode_to_air_name TEXT,
  last_episode_to_air_overview TEXT,
  last_episode_to_air_production_code TEXT,
  last_episode_to_air_season_number INTEGER,
  last_episode_to_air_show_id INTEGER,
  last_episode_to_air_still_path TEXT,
  last_episode_to_air_vote_average REAL,
  last_episode_to_air_vote_count INTEGER,
  name TEXT,
  number_of_episodes INTEGER,
  number_of_seasons INTEGER,
  original_language TEXT,
  original_name TEXT,
  overview TEXT,
  popularity REAL,
  poster_path TEXT,
  status TEXT,
  type TEXT,
  vote_average REAL,
  vote_count INTEGER,
  credit_id TEXT REFERENCES credits(id),
  gender INTEGER,
  profile_path TEXT,
  air_date TEXT,
  episode_number INTEGER,
  production_code TEXT,
  season_number INTEGER,
  show_id INTEGER,
  still_path TEXT,
  logo_path TEXT,
  episode_count INTEGER
);

CREATE TABLE upcomings ( -- Returned by GET /movie/upcoming
  maximum TEXT,
  minimum TEXT
);
