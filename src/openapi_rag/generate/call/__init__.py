"""From a request to an API call: choose the operation, fill it, check it against a validating mock.

>>> from openapi_rag.generate.call import generate_call
>>> call = generate_call("add the track 4iV5… to my playlist 3cEY…", Index.open("idx/"))  # doctest: +SKIP
>>> call.to_dict()["endpoint"]                                                          # doctest: +SKIP
'/playlists/3cEY…/tracks'
"""

from openapi_rag.generate.call.generator import GENERATORS, POLICIES, CallSettings, generate_call
from openapi_rag.generate.call.result import GeneratedCall

__all__ = ["GENERATORS", "POLICIES", "CallSettings", "GeneratedCall", "generate_call"]
